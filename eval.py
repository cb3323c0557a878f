"""Decode and score again from a checkpoint alone: ``python eval.py ckpt_path=<file>``."""

from pathreport.app.entry import hydra_entry
from pathreport.app.run import evaluate_checkpoint

if __name__ == "__main__":
    hydra_entry(evaluate_checkpoint, config_name="eval")
