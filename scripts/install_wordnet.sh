#!/usr/bin/env bash
# Install WordNet 3.0 for NLTK (the meteor_nltk evaluator) from Debian's packages.
#
# No PyPI package ships NLTK's WordNet data and nltk.download() needs a host that may be
# unreachable, but Debian's wordnet-base and wordnet-sense-index hold the same WordNet 3.0 files.
# They are unpacked (not installed), copied into $NLTK_DATA/corpora/wordnet (NLTK refuses
# symlinks that leave its data folder) and completed with the lexnames file NLTK reads, which
# Debian does not package (the 45 lexicographer files of WordNet 3.0, see lexnames(5WN)).
#
# Usage: scripts/install_wordnet.sh [TARGET]   (default: $NLTK_DATA, else ~/nltk_data)
# Needs: apt-get and dpkg (Debian/Ubuntu); runs `apt-get update` once if the package lists are missing.
set -euo pipefail
target="${1:-${NLTK_DATA:-$HOME/nltk_data}}"
dest="$target/corpora/wordnet"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
download() { (cd "$work" && apt-get download -qq wordnet-base wordnet-sense-index); }
if ! download; then
  apt-get update -qq  # a fresh machine may have no package lists yet
  download
fi
for deb in "$work"/*.deb; do dpkg -x "$deb" "$work/root"; done
mkdir -p "$dest"
cp -r "$work"/root/usr/share/wordnet/. "$dest"/
names=(adj.all adj.pert adv.all noun.Tops noun.act noun.animal noun.artifact noun.attribute noun.body
  noun.cognition noun.communication noun.event noun.feeling noun.food noun.group noun.location
  noun.motive noun.object noun.person noun.phenomenon noun.plant noun.possession noun.process
  noun.quantity noun.relation noun.shape noun.state noun.substance noun.time verb.body verb.change
  verb.cognition verb.communication verb.competition verb.consumption verb.contact verb.creation
  verb.emotion verb.motion verb.perception verb.possession verb.social verb.stative verb.weather adj.ppl)
: > "$dest/lexnames"
for i in "${!names[@]}"; do
  name="${names[$i]}"
  case "$name" in noun.*) pos=1 ;; verb.*) pos=2 ;; adv.*) pos=4 ;; *) pos=3 ;; esac
  printf '%02d\t%s\t%d\n' "$i" "$name" "$pos" >> "$dest/lexnames"
done
echo "WordNet installed in $dest (set NLTK_DATA=$target if that is not NLTK's default search path)"
