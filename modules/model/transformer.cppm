// hml.transformer — a decoder-only transformer (Llama-style) and its inference on a machine description:
// the operators of a prefill step (batch x prompt tokens) and of a decode step (one token per sequence over
// a growing context), each placed on the machine's roofline at the precision it computes in; the time of a
// step, a phase and a token; the batch at which decode turns compute-bound, in closed form; the memory it
// needs (weights + KV cache + activations) against the machine's typed capacity; efficiency factors and
// their fit from one measured time; tensor parallelism over N devices joined by a link, and pipeline
// parallelism over stages of layers (hml.pipeline schedules their micro-batches); beside the ideal
// bound, the expected time of a GPU run (matrix products tiled in waves over the SMs, a fixed cost a kernel).
//
// Conventions (docs/explanation/transformer-conventions.md states them all, with what they leave out):
//   - every operand crosses main memory once per operator (ideal on-chip reuse), compute and memory overlap
//     within an operator (time = max of the two), operators run one after another (times add);
//   - a decode step reads all the weights of the linear layers, one embedding row per sequence, the final
//     norm and LM head, and the whole KV cache of the context; it writes the new token's keys and values;
//   - the LM head runs on the last token of each sequence only (prefill included);
//   - GEMMs run in the wider of the activations' and weights' precision (tensor units for 16 bits and
//     narrower, vector units for FP32 and FP64: hml::matrix_compute); norms, softmax's
//     element-wise neighbours and activations on FP32 vector units; a precision the machine publishes no
//     peak for is an error (a compile error in a constant expression), never a fallback.
//   - parameters are stored at the weights' precision; biases (GPT-2, OPT; Llama and Mistral have none) add a
//     weight and a FLOP per output of a projection's row, in its epilogue; a learned position table is read
//     a row per token, where rotary embeddings are not applied.
//   - mixture of experts: each token runs `active_experts` of the `experts` MLPs, chosen by a router (a
//     hidden x experts GEMM); a step reads the weights of min(experts, tokens x active) experts, every
//     token's experts counted as distinct until all are touched (an upper bound for uniform routing); the
//     weighted sum of the experts' outputs is not counted (hidden per active expert per token: small).
//
// The partitions: :model (sizes, parameters, pipeline stages), :steps (how it runs, a step's operators),
// :time (a step's time, a pipeline's schedule, a generation), :serving (serving figures, chunked prefill,
// speculative decoding, the ridge batch), :memory (memory against capacity, calibration).
export module hml.transformer;
export import hml.operators;
export import hml.analysis;
export import hml.link;
export import hml.pipeline;
export import :model;
export import :steps;
export import :time;
export import :serving;
export import :memory;
