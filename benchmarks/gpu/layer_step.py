"""One transformer layer's decode step on the GPU, as PyTorch runs it: Llama 3 8B's layer (hidden 4096, 32
heads, 8 KV heads of 128, SwiGLU MLP of 14336), BF16 weights, activations and KV cache, one new token per
sequence attending to `context` cached tokens. The step is captured in a CUDA graph (as serving engines run
decode), over four distinct layers so that each layer's weights and cache come from HBM as in a whole model;
the time is a graph replay's median over trials, divided by the layers. Writes layer.csv (gpu.cpp reads it).

Operators per layer: RMSNorm, QKV projection, rotary embedding of q and k, the KV-cache store, attention
(scaled_dot_product_attention, grouped queries as 4 query rows per KV head), O projection, residual add,
RMSNorm, gate+up projection, SwiGLU, down projection, residual add."""
import argparse
import csv
import statistics

import torch
import torch.nn.functional as F

HIDDEN, HEADS, KV_HEADS, HEAD_DIM, FFN = 4096, 32, 8, 128, 14336
LAYERS = 4


def random(*shape, scale=0.02):
    return (torch.randn(*shape, device="cuda", dtype=torch.float32) * scale).to(torch.bfloat16)


class Layer:
    def __init__(self, batch, context):
        self.norm1 = torch.ones(HIDDEN, device="cuda", dtype=torch.bfloat16)
        self.norm2 = torch.ones(HIDDEN, device="cuda", dtype=torch.bfloat16)
        self.qkv = random((HEADS + 2 * KV_HEADS) * HEAD_DIM, HIDDEN)
        self.o = random(HIDDEN, HEADS * HEAD_DIM)
        self.gate_up = random(2 * FFN, HIDDEN)
        self.down = random(HIDDEN, FFN)
        self.k_cache = random(batch, KV_HEADS, context, HEAD_DIM, scale=1.0)
        self.v_cache = random(batch, KV_HEADS, context, HEAD_DIM, scale=1.0)
        self.position = context - 1

    def step(self, x, cos, sin):
        batch = x.shape[0]
        h = F.rms_norm(x, (HIDDEN,), self.norm1)
        q, k, v = (h @ self.qkv.t()).split([HEADS * HEAD_DIM, KV_HEADS * HEAD_DIM, KV_HEADS * HEAD_DIM], dim=-1)
        q = q.view(batch, KV_HEADS, HEADS // KV_HEADS, HEAD_DIM)
        k = k.view(batch, KV_HEADS, 1, HEAD_DIM)
        q, k = rotate(q, cos, sin), rotate(k, cos, sin)
        self.k_cache[:, :, self.position : self.position + 1] = k
        self.v_cache[:, :, self.position : self.position + 1] = v.view(batch, KV_HEADS, 1, HEAD_DIM)
        attention = F.scaled_dot_product_attention(q, self.k_cache, self.v_cache)
        x = x + attention.reshape(batch, HEADS * HEAD_DIM) @ self.o.t()
        h = F.rms_norm(x, (HIDDEN,), self.norm2)
        gate, up = (h @ self.gate_up.t()).chunk(2, dim=-1)
        return x + (F.silu(gate) * up) @ self.down.t()


def rotate(t, cos, sin):
    first, second = t.chunk(2, dim=-1)
    return t * cos + torch.cat((-second, first), dim=-1) * sin


def median_seconds(run, trials, repeats):
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    times = []
    for _ in range(trials):
        start.record()
        for _ in range(repeats):
            run()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop) * 1e-3 / repeats)
    return statistics.median(times)


def measure(batch, context):
    layers = [Layer(batch, context) for _ in range(LAYERS)]
    x = random(batch, HIDDEN, scale=1.0)
    angle = torch.rand(batch, 1, 1, HEAD_DIM, device="cuda") * 6.28
    cos, sin = angle.cos().to(torch.bfloat16), angle.sin().to(torch.bfloat16)

    def forward():
        y = x
        for layer in layers:
            y = layer.step(y, cos, sin)
        return y

    with torch.no_grad():
        eager = median_seconds(forward, 5, 3) / LAYERS  # also the warm-up before capture
        stream = torch.cuda.Stream()
        stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(stream):
            for _ in range(3):
                forward()
        torch.cuda.current_stream().wait_stream(stream)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            out = forward()
        graph.replay()
        torch.cuda.synchronize()
        assert torch.isfinite(out.float()).all(), "the layer step produced non-finite values"
        graphed = median_seconds(graph.replay, 9, 10) / LAYERS
    del layers, graph
    torch.cuda.empty_cache()
    return graphed, eager


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="layer.csv")
    parser.add_argument("--tiny", action="store_true", help="one small point: checks that the script runs")
    args = parser.parse_args()
    points = [(1, 1024)] if args.tiny else [(b, c) for c in (1024, 4096) for b in (1, 8, 32, 64, 128, 256)]
    with open(args.out, "w", newline="") as f:
        out = csv.writer(f, lineterminator="\n")
        out.writerow(["model", "batch", "context", "seconds", "eager_seconds", "torch"])
        for batch, context in points:
            graphed, eager = measure(batch, context)
            out.writerow(["llama-3-8b", batch, context, f"{graphed:.9g}", f"{eager:.9g}", torch.__version__])
            f.flush()
            print(f"layer_step: batch {batch}, context {context}: {graphed * 1e6:.1f} us (eager {eager * 1e6:.1f} us)", flush=True)


if __name__ == "__main__":
    main()
