"""A whole Llama 3 8B's steps run eagerly from Python, as a naive PyTorch program runs them (no CUDA graph):
how long the host takes to issue a step's kernels, how long the GPU is busy with them, and the step's time.
Writes eager.csv (gpu.cpp reads it).

The model is model_step.py's (32 of layer_step.py's layers, BF16, random weights, greedy sampling). For each
point the step runs eagerly after a warm-up, and three figures are taken, each the median of 7 trials:
- issue_seconds: the host's time from the call to its return, the GPU idle at the call (PyTorch returns once
  the last kernel is queued; no step here waits for the GPU before its end);
- seconds: the step's time, CUDA events around the call;
- gpu_seconds and gpu_activities: from one more run under torch.profiler, the GPU's busy time (the sum of
  its kernels' and copies' durations on the one stream) and how many kernels and copies it ran."""
import argparse
import csv
import gc
import statistics
import time

import torch
from torch.profiler import ProfilerActivity, profile

from layer_step import HEAD_DIM, KV_HEADS, median_seconds, random
from model_step import VOCABULARY, Model, angles


def issue_seconds(run, trials):
    times = []
    for _ in range(trials):
        torch.cuda.synchronize()
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
        torch.cuda.synchronize()
    return statistics.median(times)


def gpu_busy(run):
    """The GPU's busy seconds and its number of kernels and copies in one run of `run`."""
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as trace:
        run()
        torch.cuda.synchronize()
    device = [e for e in trace.events() if e.device_type == torch.autograd.DeviceType.CUDA]
    return sum(e.time_range.elapsed_us() for e in device) * 1e-6, len(device)


def with_cache(model, batch, context):
    for layer in model.layers:
        layer.k_cache = layer.v_cache = None
    gc.collect()
    torch.cuda.empty_cache()
    for layer in model.layers:
        layer.k_cache = random(batch, KV_HEADS, context, HEAD_DIM, scale=1.0)
        layer.v_cache = random(batch, KV_HEADS, context, HEAD_DIM, scale=1.0)
        layer.position = context - 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="eager.csv")
    args = parser.parse_args()
    torch.manual_seed(0)
    model = Model(1, 1)
    points = [("prefill", 1, n) for n in (1, 16, 128, 512, 2048)]
    points += [("decode", b, c) for c, batches in ((1024, (1, 16, 64, 256)), (4096, (1, 16))) for b in batches]
    with open(args.out, "w", newline="") as f, torch.no_grad():
        out = csv.writer(f, lineterminator="\n")
        out.writerow(["model", "phase", "batch", "tokens", "seconds", "issue_seconds", "gpu_seconds",
                      "gpu_activities", "torch"])
        for phase, batch, tokens in points:
            with_cache(model, batch, tokens)
            if phase == "prefill":
                prompt = torch.randint(0, VOCABULARY, (batch, tokens), device="cuda")
                cos, sin = angles(1, 1, tokens)
                step = lambda: model.prefill(prompt, cos, sin)  # noqa: E731
            else:
                new = torch.randint(0, VOCABULARY, (batch,), device="cuda")
                cos, sin = angles(batch, 1, 1)
                step = lambda: model.decode(new, cos, sin)  # noqa: E731
            step()  # warm-up: cuBLAS's and FlashAttention's first calls
            step()
            issue = issue_seconds(step, 7)
            seconds = median_seconds(step, 7, 1)
            busy, activities = gpu_busy(step)
            out.writerow(["llama-3-8b", phase, batch, tokens, f"{seconds:.9g}", f"{issue:.9g}", f"{busy:.9g}",
                          activities, torch.__version__])
            f.flush()
            print(f"eager_step: {phase} batch {batch} x {tokens}: {seconds * 1e3:.3f} ms, issue {issue * 1e3:.3f} ms, "
                  f"GPU busy {busy * 1e3:.3f} ms in {activities} kernels and copies", flush=True)


if __name__ == "__main__":
    main()
