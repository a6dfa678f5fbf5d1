"""Parameter sweeps behind the book's kernel-free slider charts.

Two sweeps: write throughput against compressibility for every cache
configuration of Table 3 (the slider moves over the configuration's index,
since the capacities are unevenly spaced), and the recall mount response
against the recall queue length for 3 to 6 drives (Fig. 6).
"""

import numpy as np
import pandas as pd

from perfstudies.models.vts.network import recall_model, throughput_model
from perfstudies.models.vts.params import VTSParams, cache_configurations, text_value
from perfstudies.runner import summarize
from perfstudies.sweep import run_sweep

WRITE_CF = tuple(np.round(np.arange(1.0, 4.01, 0.5), 2))
WRITE_REPLICATIONS = 3
WRITE_COMPLETIONS = 250
RECALL_QUEUES = tuple(range(0, 33, 4))
RECALL_DRIVES = (3, 4, 5, 6)
RECALL_REPLICATIONS = 12


def cache_choices() -> pd.DataFrame:
    """Table 3's configurations numbered 1..N, with the feature level each one is run at."""
    table = cache_configurations().reset_index(drop=True)
    table["index"] = np.arange(1, len(table) + 1)
    table["feature"] = np.where(table["features"] == "paf", "PAF", "EHPO")
    groups = table["parity_groups"].astype(str) + "(" + table["data_disks_per_group"].astype(str) + "+P)"
    table["label"] = (table["capacity_gb"].astype(str) + " GB, " + table["hdd_gb"].astype(str) + " GB disks, "
                      + groups + ", " + table["feature"])
    return table


def write_points() -> list[VTSParams]:
    """Peak and sustained write at every configuration and compressibility of the sweep."""
    return [VTSParams(feature=c.feature, capacity_gb=int(c.capacity_gb), hdd_gb=int(c.hdd_gb), escon_channels=8,
                      streams=64 if c.feature == "PAF" else 16, workload=w, compressibility=float(cf),
                      completions=WRITE_COMPLETIONS)
            for c in cache_choices().itertuples() for w in ("peak_write", "sustained_write") for cf in WRITE_CF]


def write_sweep(seed: int = 7) -> pd.DataFrame:
    """Mean host MB/s with 95% CI per configuration index, workload and compressibility."""
    runs = run_sweep(throughput_model, write_points(), replications=WRITE_REPLICATIONS, seed=seed, progress=False)
    summary = summarize(runs[runs["metric"] == "host_mb_s"],
                        by=["capacity_gb", "hdd_gb", "feature", "workload", "compressibility"]).reset_index()
    labels = cache_choices()[["capacity_gb", "hdd_gb", "feature", "index", "label"]]
    return summary.merge(labels, on=["capacity_gb", "hdd_gb", "feature"])


def recall_points() -> list[VTSParams]:
    """Fig. 6's setting (CF 3, 3590B) for each volume size, drive count and queue length."""
    sizes = [text_value(f"fig6_volume_{k}") for k in ("small", "medium", "large")]
    return [VTSParams(feature="EHPO", capacity_gb=1152, workload="read_recall", drive_model="B",
                      compressibility=text_value("fig6_compressibility"), volume_mb=size, drives=d, recall_queue=q)
            for d in RECALL_DRIVES for size in sizes for q in RECALL_QUEUES]


def recall_sweep(seed: int = 11) -> pd.DataFrame:
    """Mean recall mount response (minutes) with 95% CI per drives, volume size and queue length."""
    runs = run_sweep(recall_model, recall_points(), replications=RECALL_REPLICATIONS, seed=seed, progress=False)
    runs = runs.assign(value=runs["value"] / 60.0)
    return summarize(runs, by=["drives", "volume_mb", "recall_queue"]).reset_index()
