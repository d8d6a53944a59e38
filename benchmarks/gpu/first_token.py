"""A whole Llama 3 8B's prefill captured in a CUDA graph, and a first token served around it; writes
first_token.csv (gpu.cpp reads it).

model_step.py times the prefill eagerly, where Python's issue of its ~800 kernels binds at short prompts;
a serving engine issues them from a graph or its own runtime. Here the same model (model_step.Model: BF16,
random weights, causal FlashAttention-2, greedy sampling) runs `batch` prompts of `tokens` tokens, and each
point gives three figures, each the median of 7 trials:
- graph_seconds: the prefill and its sample replayed from a CUDA graph (CUDA events): the GPU's time for a
  first token with nothing of the host in it;
- eager_seconds: the same call issued eagerly (CUDA events), as model.csv times it;
- request_seconds: a first token as a minimal server gives it, by the host's clock: the prompt's token ids
  copied from pinned host memory to the GPU, the graph replayed, the sampled tokens copied back and read.
  Its excess over graph_seconds (two medians, of separate loops on two clocks) is what a request adds where
  it is larger than the steps' own spread from run to run, and says nothing finer.
With --kernels FILE, one more replay of each graph runs under torch.profiler, and FILE gets the GPU's busy
time by kind of kernel (matrix products, attention, the rest) with their counts, for the report to set beside
hml's operators."""
import argparse
import csv
import gc

import torch
from torch.profiler import ProfilerActivity, profile

from eager_step import issue_seconds, with_cache
from layer_step import median_seconds
from model_step import VOCABULARY, Model, angles, captured


def kind_of(kernel):
    name = kernel.lower()
    if "flash" in name or "fmha" in name:
        return "attention"
    if any(k in name for k in ("gemm", "nvjet", "cutlass", "xmma", "cublas")):
        return "matrix product"
    return "other"


def kernels_by_kind(run):
    """{kind: (kernels, seconds)} of the GPU's work in one run of `run`, and the ten longest kernels."""
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as trace:
        run()
        torch.cuda.synchronize()
    kinds, longest = {}, {}
    for e in trace.events():
        if e.device_type != torch.autograd.DeviceType.CUDA:
            continue
        seconds = e.time_range.elapsed_us() * 1e-6
        count, total = kinds.get(kind_of(e.name), (0, 0.0))
        kinds[kind_of(e.name)] = (count + 1, total + seconds)
        longest[e.name] = longest.get(e.name, 0.0) + seconds
    return kinds, sorted(longest.items(), key=lambda item: -item[1])[:10]


def measure(model, batch, tokens):
    with_cache(model, batch, tokens)
    prompt = torch.randint(0, VOCABULARY, (batch, tokens), device="cuda")
    cos, sin = angles(1, 1, tokens)
    model.prefill(prompt, cos, sin)  # warm-up: cuBLAS's and FlashAttention's first calls
    eager = median_seconds(lambda: model.prefill(prompt, cos, sin), 7, 1)
    graph, sampled = captured(lambda: model.prefill(prompt, cos, sin), 2)
    graph.replay()
    torch.cuda.synchronize()
    graphed = median_seconds(graph.replay, 7, 3)
    host_prompt = torch.randint(0, VOCABULARY, (batch, tokens)).pin_memory()

    def request():
        prompt.copy_(host_prompt, non_blocking=True)
        graph.replay()
        return sampled.cpu().tolist()

    request()
    served = issue_seconds(request, 7)  # the host's time to a token in hand: request() waits for its copy
    kinds, longest = kernels_by_kind(graph.replay)
    if not kinds:  # a profiler that sees no kernel inside a graph: the same kernels, issued eagerly
        kinds, longest = kernels_by_kind(lambda: model.prefill(prompt, cos, sin))
        print("first_token: the profiler saw no kernel in the graph's replay; kinds from an eager call", flush=True)
    del graph
    return graphed, eager, served, kinds, longest


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="first_token.csv")
    parser.add_argument("--kernels", default="first_token_kernels.csv")
    args = parser.parse_args()
    torch.manual_seed(0)
    model = Model(1, 1)
    points = [(1, 128), (1, 512), (1, 2048), (8, 128), (8, 2048)]
    with open(args.out, "w", newline="") as f, open(args.kernels, "w", newline="") as k, torch.no_grad():
        out, by_kind = csv.writer(f, lineterminator="\n"), csv.writer(k, lineterminator="\n")
        out.writerow(["model", "batch", "tokens", "graph_seconds", "eager_seconds", "request_seconds", "torch"])
        by_kind.writerow(["model", "batch", "tokens", "kind", "kernels", "seconds", "torch"])
        for batch, tokens in points:
            gc.collect()
            graphed, eager, served, kinds, longest = measure(model, batch, tokens)
            out.writerow(["llama-3-8b", batch, tokens, f"{graphed:.9g}", f"{eager:.9g}", f"{served:.9g}",
                          torch.__version__])
            for kind, (count, seconds) in sorted(kinds.items()):
                by_kind.writerow(["llama-3-8b", batch, tokens, kind, count, f"{seconds:.9g}", torch.__version__])
            f.flush()
            k.flush()
            for name, seconds in longest:
                print(f"first_token:   {seconds * 1e3:8.3f} ms  {kind_of(name):14}  {name[:110]}", flush=True)
            print(f"first_token: batch {batch} x {tokens}: graph {graphed * 1e3:.3f} ms, eager {eager * 1e3:.3f} ms, "
                  f"request {served * 1e3:.3f} ms", flush=True)


if __name__ == "__main__":
    main()
