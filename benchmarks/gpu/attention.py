"""Attention kernels and kernel launches on the GPU, as PyTorch runs them; writes attention.csv and launch.csv
(gpu.cpp reads them).

attention.csv: `scaled_dot_product_attention` in BF16 with Llama 3 heads of 128 (8B: 32 query heads over 8
key-value heads; 70B: 64 over 8).
- prefill: every sequence's tokens attend causally to each other, under the FlashAttention-2 backend
  (grouped queries as the kernel takes them, `enable_gqa`); a few points also without the causal mask.
- decode: one new token a sequence attends to `context` cached tokens, called as layer_step.py calls it (the
  4 query heads of a key-value head as 4 query rows), under PyTorch's own choice of backend and under
  FlashAttention-2; and with flash_attn_with_kvcache (split-KV, as vLLM's FlashAttention backend) where the
  flash_attn package is installed.
launch.csv: a chain of small dependent kernels (an add on 1,024 floats), issued one by one from Python
(eager) and replayed from a CUDA graph: the time a kernel takes in each.

An attention time is a kernel's share of a CUDA graph's replay (up to 50 calls in a row, as serving engines
replay decode), so that Python's dispatch, about 30 us a call, does not hide a short kernel; the time Python
takes to issue it is kept beside (eager). Each time is the median of 7 trials timed with CUDA events after a
warm-up; the inputs are random."""
import argparse
import csv
import statistics
import time

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

HEAD_DIM = 128
MODELS = {"llama-3-8b": (32, 8), "llama-3-70b": (64, 8)}
TRIALS = 7


def random(*shape):
    return torch.randn(*shape, device="cuda", dtype=torch.bfloat16)


def median_seconds(run, least_seconds=0.02):
    """Median over TRIALS of a run's time; each trial repeats the run for at least `least_seconds`."""
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    run()
    torch.cuda.synchronize()
    start.record()
    run()
    stop.record()
    stop.synchronize()
    once = max(start.elapsed_time(stop) * 1e-3, 1e-6)
    repeats = max(1, min(1000, int(least_seconds / once)))
    times = []
    for _ in range(TRIALS):
        start.record()
        for _ in range(repeats):
            run()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop) * 1e-3 / repeats)
    return statistics.median(times)


def graphed(run, calls):
    """A CUDA graph of `calls` runs in a row (warmed up on a side stream first), and its replay."""
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        for _ in range(3):
            run()
    torch.cuda.current_stream().wait_stream(stream)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(calls):
            run()
    return graph


def kernel_seconds(run):
    """A kernel's time as a graph replays it (no launch from Python between calls), and as Python issues it."""
    eager = median_seconds(run)
    calls = max(1, min(50, int(2e-3 / eager)))
    graph = graphed(run, calls)
    seconds = median_seconds(graph.replay) / calls
    del graph
    return seconds, eager


def prefill(model, batch, sequence, causal):
    heads, kv_heads = MODELS[model]
    q = random(batch, heads, sequence, HEAD_DIM)
    k, v = random(batch, kv_heads, sequence, HEAD_DIM), random(batch, kv_heads, sequence, HEAD_DIM)
    with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
        return kernel_seconds(lambda: F.scaled_dot_product_attention(q, k, v, is_causal=causal, enable_gqa=True))


def decode_sdpa(model, batch, context, backend):
    heads, kv_heads = MODELS[model]
    q = random(batch, kv_heads, heads // kv_heads, HEAD_DIM)
    k, v = random(batch, kv_heads, context, HEAD_DIM), random(batch, kv_heads, context, HEAD_DIM)
    run = lambda: F.scaled_dot_product_attention(q, k, v)  # noqa: E731
    if backend == "default":
        return kernel_seconds(run)
    with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
        return kernel_seconds(run)


def decode_flash_attn(flash_attn, model, batch, context):
    heads, kv_heads = MODELS[model]
    q = random(batch, 1, heads, HEAD_DIM)
    k, v = random(batch, context, kv_heads, HEAD_DIM), random(batch, context, kv_heads, HEAD_DIM)
    lengths = torch.full((batch,), context, device="cuda", dtype=torch.int32)
    return kernel_seconds(lambda: flash_attn.flash_attn_with_kvcache(q, k, v, cache_seqlens=lengths))


def attention(f, deadline):
    out = csv.writer(f, lineterminator="\n")
    try:
        import flash_attn  # noqa: PLC0415 (optional: serving engines' split-KV decode)
    except ImportError:
        flash_attn = None
    version = torch.__version__
    rows = []
    for model in MODELS:
        for sequence in (512, 1024, 2048, 4096, 8192, 16384):
            for batch in sorted({1, max(1, 16384 // sequence)}):
                rows.append(("prefill", model, batch, sequence, "flash", True))
        for sequence in (1024, 4096):
            rows.append(("prefill", model, 16384 // sequence, sequence, "flash", False))
        for context in (1024, 4096, 16384):
            for batch in (1, 4, 16, 64, 256):
                rows.append(("decode", model, batch, context, "default", True))
                rows.append(("decode", model, batch, context, "flash", True))
                if flash_attn is not None:
                    rows.append(("decode", model, batch, context, "flash_attn_with_kvcache", True))
    out.writerow(["phase", "model", "batch", "tokens", "kernel", "causal", "seconds", "eager_seconds", "torch"])
    for phase, model, batch, tokens, kernel, causal in rows:
        if time.monotonic() > deadline:
            print("attention: out of time, the rest skipped", flush=True)
            return
        try:
            if phase == "prefill":
                seconds, eager = prefill(model, batch, tokens, causal)
            elif kernel == "flash_attn_with_kvcache":
                seconds, eager = decode_flash_attn(flash_attn, model, batch, tokens)
                version = f"{torch.__version__} flash_attn {flash_attn.__version__}"
            else:
                seconds, eager = decode_sdpa(model, batch, tokens, kernel)
        except RuntimeError as error:  # a backend that refuses a shape: say so and go on
            print(f"attention: {phase} {model} {batch}x{tokens} {kernel}: {str(error).splitlines()[0]}", flush=True)
            continue
        out.writerow([phase, model, batch, tokens, kernel, int(causal), f"{seconds:.9g}", f"{eager:.9g}", version])
        f.flush()  # a run cut short keeps what it measured
        print(f"attention: {phase} {model} batch {batch} x {tokens} ({kernel}, causal {causal}): "
              f"{seconds * 1e6:.1f} us (eager {eager * 1e6:.1f} us)", flush=True)
        torch.cuda.empty_cache()


def launch(out):
    x = torch.zeros(1024, device="cuda")
    chain = 2000

    def issue():
        for _ in range(chain):
            x.add_(1.0)

    out.writerow(["mode", "kernels", "seconds_per_kernel", "torch"])
    eager = median_seconds(issue) / chain
    in_graph = median_seconds(graphed(issue, 1).replay) / chain
    for mode, seconds in (("eager", eager), ("graph", in_graph)):
        out.writerow([mode, chain, f"{seconds:.9g}", torch.__version__])
        print(f"launch: {mode}: {seconds * 1e6:.2f} us a kernel", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=".", help="folder for attention.csv and launch.csv")
    parser.add_argument("--seconds", type=float, default=300, help="stop measuring attention after this long")
    args = parser.parse_args()
    torch.manual_seed(0)
    with torch.no_grad():
        with open(f"{args.out}/launch.csv", "w", newline="") as f:
            launch(csv.writer(f, lineterminator="\n"))
        with open(f"{args.out}/attention.csv", "w", newline="") as f:
            attention(f, time.monotonic() + args.seconds)


if __name__ == "__main__":
    main()
