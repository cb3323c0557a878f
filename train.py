"""Train, test and score a report generator: ``python train.py model=histgen encoder=uni2``.

Composition lives in ``configs/train.yaml``; see the README for the options.
"""

from pathreport.app.entry import hydra_entry
from pathreport.app.run import train

if __name__ == "__main__":
    hydra_entry(train, config_name="train")
