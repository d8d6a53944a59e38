"""Weight-only quantized matrix-vector products on the GPU, as gpt-fast runs them at batch 1; writes
weight_only.csv (gpu.cpp reads it).

Each of Llama 2 7B's and 70B's projections (gpt-fast's fused QKV, W1, W3 and W2, and the output projection)
times one token (M = 1) in BF16 activations with its weights
- in BF16: `F.linear`, cuBLAS;
- in int8 with one BF16 scale a row: gpt-fast's WeightOnlyInt8Linear, `F.linear(x, w.to(x.dtype)) * scales`,
  compiled by `torch.compile` with gpt-fast's Inductor settings (the conversion fuses into the product);
  and PyTorch's `_weight_int8pack_mm` where it runs on CUDA;
- in int4 with a BF16 scale and zero point a group of 32 (and of 128): gpt-fast's WeightOnlyInt4Linear,
  `_weight_int4pack_mm` (tinygemm) on weights packed by `_convert_weight_to_int4pack` with 8 inner k-tiles.

`--rows 2,4,...` times the BF16 and INT4 products of more rows (tokens) instead, to show how far one row's
rate holds (weight_only_rows.csv).

A time is one product's share of a CUDA graph's replay over enough copies of the weights (at least 512 MB in
all, ten times the H100's L2) that each product reads its weights from HBM, as a whole model's decode step does;
the median of 7 trials timed with CUDA events after a warm-up. The inputs are random; each quantized product is
checked against the BF16 product of its dequantized weights (relative_error)."""
import argparse
import csv
import math
import time

import torch
import torch.nn.functional as F

from attention import median_seconds  # the median of 7 trials of at least 20 ms each, timed with CUDA events

LEAST_BYTES = 512e6
# Llama 2's projections as gpt-fast's model lays them out (out features, in features).
MODELS = {
    "llama-2-7b": {"wqkv": (12288, 4096), "wo": (4096, 4096), "w1": (11008, 4096), "w3": (11008, 4096),
                   "w2": (4096, 11008), "output": (32000, 4096)},
    "llama-2-70b": {"wqkv": (10240, 8192), "wo": (8192, 8192), "w1": (28672, 8192), "w3": (28672, 8192),
                    "w2": (8192, 28672), "output": (32000, 8192)},
}


def per_product_seconds(product, x, operands):
    """A CUDA graph of the product over every copy of the operands; one product's share of its replay."""
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        for _ in range(2):
            for operand in operands:
                product(x, *operand)
    torch.cuda.current_stream().wait_stream(stream)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        outputs = [product(x, *operand) for operand in operands]
    graph.replay()
    torch.cuda.synchronize()
    assert all(torch.isfinite(y.float()).all() for y in outputs), "a product gave non-finite values"
    seconds = median_seconds(graph.replay) / len(operands)
    del graph, outputs
    return seconds


def profiled_once(product, x, operands):
    """For ncu: one product, after a warm-up one, inside the NVTX range 'measure'; no time (NaN)."""
    product(x, *operands[0])
    torch.cuda.synchronize()
    torch.cuda.nvtx.range_push("measure")
    product(x, *operands[-1])
    torch.cuda.nvtx.range_pop()
    torch.cuda.synchronize()
    return float("nan")


def copies_for(bytes_each):
    return max(2, min(64, math.ceil(LEAST_BYTES / bytes_each)))


def relative_error(y, reference):
    return float((y.float() - reference).norm() / reference.norm())


def int4_quantized(w, group):
    """gpt-fast's group quantization: asymmetric, 4 bits, w = (q - 8) * scale + zero a group."""
    n, k = w.shape
    groups = w.float().reshape(-1, group)
    low, high = groups.amin(dim=1, keepdim=True), groups.amax(dim=1, keepdim=True)
    scales = ((high - low).clamp(min=1e-6) / 15)
    zeros = low + scales * 8
    q = ((groups - low) / scales).round().clamp(0, 15).to(torch.int32).reshape(n, k)
    scales, zeros = scales.to(torch.bfloat16).reshape(n, -1), zeros.to(torch.bfloat16).reshape(n, -1)
    scales_and_zeros = torch.stack([scales, zeros], dim=2).transpose(0, 1).contiguous()  # [k/group, n, 2]
    dequantized = ((q.float().reshape(-1, group) - 8) * scales.float().reshape(-1, 1)
                   + zeros.float().reshape(-1, 1)).reshape(n, k)
    return q, scales_and_zeros, dequantized


def int4_packed(q, high_first):
    pairs = (q[:, ::2] << 4 | q[:, 1::2]) if high_first else (q[:, 1::2] << 4 | q[:, ::2])
    return torch.ops.aten._convert_weight_to_int4pack(pairs.to(torch.uint8).contiguous(), 8)


def attempt(what, measure):
    """Runs one measurement; a kernel that fails on this GPU or PyTorch is named and left out, not fatal."""
    try:
        measure()
    except Exception as failure:  # noqa: BLE001 - any failure of one kernel leaves the others to run
        text = str(failure).strip().splitlines()
        print(f"weight_only: {what}: {type(failure).__name__}: {text[0] if text else ''}", flush=True)
        torch.cuda.synchronize()


def int8_linear(x, w, scales):
    return F.linear(x, w.to(dtype=x.dtype)) * scales


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="weight_only.csv")
    parser.add_argument("--compile-budget", type=float, default=150.0,
                        help="seconds of torch.compile after which the compiled int8 products are left out")
    parser.add_argument("--tiny", action="store_true", help="one small matrix: checks that the script runs")
    parser.add_argument("--profile", action="store_true",
                        help="run each kernel of two matrices once inside an NVTX range 'measure' (for ncu), time none")
    parser.add_argument("--rows", default="1",
                        help="the products' rows (tokens), comma-separated; the INT8 products run at 1 alone")
    args = parser.parse_args()
    rows = [int(r) for r in args.rows.split(",")]
    import torch._dynamo.config as dynamo
    import torch._inductor.config as inductor  # gpt-fast's settings
    dynamo.recompile_limit = 64  # one compiled product a shape: twelve shapes
    inductor.coordinate_descent_tuning = True
    inductor.triton.unique_kernel_names = True
    compiled_int8 = torch.compile(int8_linear, fullgraph=True, dynamic=False)
    compile_seconds = 0.0
    models = {"tiny": {"w": (1024, 1024)}} if args.tiny else MODELS
    timed = per_product_seconds
    if args.profile:
        models = {"llama-2-7b": {"wo": MODELS["llama-2-7b"]["wo"]}, "llama-2-70b": {"w1": MODELS["llama-2-70b"]["w1"]}}
        timed = profiled_once
    torch.manual_seed(0)
    with open(args.out, "w", newline="") as f, torch.no_grad():
        out = csv.writer(f, lineterminator="\n")
        out.writerow(["model", "matrix", "m", "n", "k", "format", "group", "kernel", "weight_bytes", "scale_bytes",
                      "copies", "seconds", "relative_error", "torch"])

        def record(model, matrix, n, k, fmt, group, kernel, weight_bytes, scale_bytes, copies, seconds, error):
            out.writerow([model, matrix, x.shape[0], n, k, fmt, group, kernel, weight_bytes, scale_bytes, copies,
                          f"{seconds:.9g}", f"{error:.3g}", torch.__version__])
            f.flush()
            rate = (weight_bytes + scale_bytes) / seconds / 1e9
            print(f"weight_only: {model} {matrix} {x.shape[0]}x{n}x{k} {fmt:>4} g{group:<3} {kernel:<22} "
                  f"{seconds * 1e6:8.2f} us {rate:7.1f} GB/s  error {error:.2g}", flush=True)

        for model, matrices in models.items():
            for matrix, (n, k), m in ((mat, shape, m) for mat, shape in matrices.items() for m in rows):
                w = torch.randn(n, k, device="cuda", dtype=torch.float32) * 0.02
                x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
                reference = x.float() @ w.t()

                def bf16():
                    w16 = w.to(torch.bfloat16)
                    copies = copies_for(w16.numel() * 2)
                    seconds = timed(F.linear, x, [(w16.clone(),) for _ in range(copies)])
                    record(model, matrix, n, k, "bf16", 0, "cublas", n * k * 2, 0, copies, seconds,
                           relative_error(F.linear(x, w16), reference))

                attempt(f"{model} {matrix} bf16", bf16)
                torch.cuda.empty_cache()

                def int4(group):
                    q, scales_and_zeros, dequantized = int4_quantized(w, group)
                    expected = x.float() @ dequantized.t()
                    best = None
                    for high_first in (True, False):
                        packed = int4_packed(q, high_first)
                        error = relative_error(torch.ops.aten._weight_int4pack_mm(x, packed, group, scales_and_zeros),
                                               expected)
                        if best is None or error < best[1]:
                            best = (packed, error)
                    packed, error = best
                    copies = copies_for(n * k // 2)
                    operands = [(packed.clone(), group, scales_and_zeros.clone()) for _ in range(copies)]
                    seconds = timed(torch.ops.aten._weight_int4pack_mm, x, operands)
                    record(model, matrix, n, k, "int4", group, "tinygemm", n * k // 2, scales_and_zeros.numel() * 2,
                           copies, seconds, error)

                for group in (32, 128):
                    attempt(f"{model} {matrix} int4 g{group}", lambda: int4(group))
                    torch.cuda.empty_cache()

                if m > 1:  # the INT8 products at one row alone
                    del w, reference
                    torch.cuda.empty_cache()
                    continue
                scales = (w.abs().amax(dim=1) / 127).clamp(min=1e-8)
                w8 = (w / scales[:, None]).round().clamp(-128, 127).to(torch.int8)
                scales = scales.to(torch.bfloat16)
                expected = x.float() @ (w8.float() * scales.float()[:, None]).t()
                copies = copies_for(n * k)
                operands = [(w8.clone(), scales.clone()) for _ in range(copies)]

                def int8_compiled():
                    nonlocal compile_seconds
                    began = time.perf_counter()
                    try:
                        error = relative_error(compiled_int8(x, w8, scales), expected)
                    finally:
                        compile_seconds += time.perf_counter() - began
                    seconds = timed(compiled_int8, x, operands)
                    record(model, matrix, n, k, "int8", 0, "torch.compile (gpt-fast)", n * k, n * 2, copies, seconds,
                           error)

                def int8_pack():
                    error = relative_error(torch.ops.aten._weight_int8pack_mm(x, w8, scales), expected)
                    seconds = timed(torch.ops.aten._weight_int8pack_mm, x, operands)
                    record(model, matrix, n, k, "int8", 0, "_weight_int8pack_mm", n * k, n * 2, copies, seconds, error)

                if compile_seconds < args.compile_budget:
                    attempt(f"{model} {matrix} int8 compiled", int8_compiled)
                attempt(f"{model} {matrix} int8 _weight_int8pack_mm", int8_pack)
                del operands, w8, w, reference
                torch.cuda.empty_cache()
    print(f"weight_only: {compile_seconds:.1f} s in torch.compile", flush=True)


if __name__ == "__main__":
    main()
