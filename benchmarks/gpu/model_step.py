"""A whole Llama 3 8B's prefill and decode step on the GPU, as PyTorch runs them; writes model.csv (gpu.cpp
reads it).

The model: 32 of layer_step.py's layers (BF16 weights and KV cache, random values), the embedding and the LM
head of 128,256 tokens, greedy sampling (argmax). A prefill runs `prompt` tokens of each of `batch`
sequences through it eagerly (causal FlashAttention-2) and samples one token: the time to first token
without a server. A decode step runs one new token a sequence against `context` cached tokens, captured in a
CUDA graph as serving engines run decode: the time per output token without a server. Each time is the
median of 7 trials (layer_step.median_seconds)."""
import argparse
import csv
import gc

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

from layer_step import HEAD_DIM, HEADS, HIDDEN, KV_HEADS, Layer, median_seconds, random, rotate

LAYERS, VOCABULARY = 32, 128256


class Model:
    def __init__(self, batch, context):
        self.layers = [Layer(batch, context) for _ in range(LAYERS)]
        self.embedding = random(VOCABULARY, HIDDEN)
        self.norm = torch.ones(HIDDEN, device="cuda", dtype=torch.bfloat16)
        self.head = random(VOCABULARY, HIDDEN)

    def sample(self, x):
        return (F.rms_norm(x, (HIDDEN,), self.norm) @ self.head.t()).argmax(dim=-1)

    def decode(self, tokens, cos, sin):
        x = self.embedding[tokens]
        for layer in self.layers:
            x = layer.step(x, cos, sin)
        return self.sample(x)

    @sdpa_kernel(SDPBackend.FLASH_ATTENTION)
    def prefill(self, tokens, cos, sin):
        batch, prompt = tokens.shape
        x = self.embedding[tokens]
        for layer in self.layers:
            h = F.rms_norm(x, (HIDDEN,), layer.norm1)
            q, k, v = (h @ layer.qkv.t()).split([HEADS * HEAD_DIM, KV_HEADS * HEAD_DIM, KV_HEADS * HEAD_DIM], dim=-1)
            q = rotate(q.view(batch, prompt, HEADS, HEAD_DIM).transpose(1, 2), cos, sin)
            k = rotate(k.view(batch, prompt, KV_HEADS, HEAD_DIM).transpose(1, 2), cos, sin)
            v = v.view(batch, prompt, KV_HEADS, HEAD_DIM).transpose(1, 2)
            layer.k_cache[:, :, :prompt] = k
            layer.v_cache[:, :, :prompt] = v
            attention = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
            x = x + attention.transpose(1, 2).reshape(batch, prompt, HEADS * HEAD_DIM) @ layer.o.t()
            h = F.rms_norm(x, (HIDDEN,), layer.norm2)
            gate, up = (h @ layer.gate_up.t()).chunk(2, dim=-1)
            x = x + (F.silu(gate) * up) @ layer.down.t()
        return self.sample(x[:, -1])


def angles(*shape):
    angle = torch.rand(*shape, HEAD_DIM, device="cuda") * 6.28
    return angle.cos().to(torch.bfloat16), angle.sin().to(torch.bfloat16)


def measure_prefill(batch, prompt):
    model = Model(batch, prompt)
    tokens = torch.randint(0, VOCABULARY, (batch, prompt), device="cuda")
    cos, sin = angles(1, 1, prompt)
    model.prefill(tokens, cos, sin)  # warm-up: cuBLAS's and FlashAttention's first calls
    seconds = median_seconds(lambda: model.prefill(tokens, cos, sin), 7, 1)
    del model
    torch.cuda.empty_cache()
    return seconds


def captured(run, warmups):
    """`run` captured in a CUDA graph after `warmups` runs on a side stream (as PyTorch asks of a capture:
    cuBLAS's and FlashAttention's first calls allocate), and what the captured run returned."""
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        for _ in range(warmups):
            run()
    torch.cuda.current_stream().wait_stream(stream)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = run()
    return graph, out


def measure_decode(batch, context):
    model = Model(batch, context)
    tokens = torch.randint(0, VOCABULARY, (batch,), device="cuda")
    cos, sin = angles(batch, 1, 1)
    graph, _ = captured(lambda: model.decode(tokens, cos, sin), 3)
    seconds = median_seconds(graph.replay, 7, 5)
    del model, graph
    torch.cuda.empty_cache()
    return seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="model.csv")
    args = parser.parse_args()
    torch.manual_seed(0)
    points = [("prefill", b, n) for b, n in ((1, 128), (1, 512), (1, 2048), (1, 8192), (8, 1024), (32, 512))]
    # A token's cache is 128 KiB, so 4,096 tokens of 128 sequences (64 GiB) would not fit beside the weights in
    # an H100's 80 GB: the largest batch there is 64.
    points += [("decode", b, c) for c, batches in ((1024, (1, 16, 64, 256)), (4096, (1, 16, 64))) for b in batches]
    with open(args.out, "w", newline="") as f, torch.no_grad():
        out = csv.writer(f, lineterminator="\n")
        out.writerow(["model", "phase", "batch", "tokens", "seconds", "torch"])
        for phase, batch, tokens in points:
            gc.collect()  # the previous point's model and graph, before this one's are made
            seconds = (measure_prefill if phase == "prefill" else measure_decode)(batch, tokens)
            out.writerow(["llama-3-8b", phase, batch, tokens, f"{seconds:.9g}", torch.__version__])
            f.flush()
            print(f"model_step: {phase} batch {batch} x {tokens}: {seconds * 1e3:.3f} ms", flush=True)


if __name__ == "__main__":
    main()
