// `hml llm`, driven from outside: its CSV and JSON read back and compared with the library's own analysis
// (exactly: the CLI composes hml.transformer, it does not re-derive), explicit sizes equal to a preset, and
// every kind of bad input: exit status 2, one line on stderr, nothing on stdout, no output file.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_harness.hpp"

import hml;

#ifdef HML_CLI

namespace {

namespace fs = std::filesystem;

using namespace hml_test;

// `hml llm` computes expected times by default (--bound: the ideal bound); the library's default is the bound.
constexpr hml::inference_options expected{.estimate = hml::estimate::expected};

// `hml llm ARGS...`, then what the test adds after them.
outcome llm(std::initializer_list<std::string> args, std::initializer_list<std::string> more = {}) {
  std::vector<std::string> all{"llm"};
  all.insert(all.end(), args);
  all.insert(all.end(), more);
  return hml_run(all);
}

TEST(LlmCli, JsonIsTheLibrarysAnalysis) {
  const outcome r = llm({"--model", "llama-2-7b", "--device", "a100_sxm_80gb", "--batch", "4", "--prompt", "512",
                        "--generate", "32", "--format", "json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto rows = nlohmann::json::parse(r.out)["operators"];
  // By default the model runs on the measured figures where published (HBM2e: 1.70 TB/s, BabelStream).
  const hml::machine_description d = hml::with_figures(hml::devices::a100_sxm_80gb, hml::basis::measured_where_published);
  const auto prefill = hml::analyze_step(hml::models::llama_2_7b, hml::prefill_step(4, 512), d, expected);
  const auto decode = hml::analyze_step(hml::models::llama_2_7b, hml::decode_step(4, 513), d, expected);
  ASSERT_EQ(rows.size(), prefill.operators.size() + decode.operators.size() + 2);
  double shares = 0;
  for (std::size_t i = 0; i < decode.operators.size(); ++i) {
    const auto& row = rows[prefill.operators.size() + 1 + i];
    EXPECT_EQ(row["phase"], "decode");
    EXPECT_EQ(row["operator"], std::string{decode.operators[i].op.name});
    EXPECT_EQ(row["flops"].get<double>(), decode.operators[i].op.flops.value());
    EXPECT_EQ(row["time_s"].get<double>(), decode.operators[i].time.value());
    EXPECT_EQ(row["overhead_s"].get<double>(), decode.operators[i].overhead.value());
    shares += row["share"].get<double>();
  }
  EXPECT_NEAR(shares, 1.0, 1e-12);
  const auto& prefill_total = rows[prefill.operators.size()];
  EXPECT_EQ(prefill_total["operator"], "total");
  EXPECT_EQ(prefill_total["time_s"].get<double>(), prefill.time.value.value());
  // The total's bytes split as its rows split them: read under read, written under written.
  double read = 0, written = 0;
  for (std::size_t i = 0; i < prefill.operators.size(); ++i) {
    read += rows[i]["bytes_read"].get<double>();
    written += rows[i]["bytes_written"].get<double>();
  }
  EXPECT_DOUBLE_EQ(prefill_total["bytes_read"].get<double>(), read);
  EXPECT_DOUBLE_EQ(prefill_total["bytes_written"].get<double>(), written);
  EXPECT_DOUBLE_EQ(read + written, prefill.bytes.value());
  const auto& decode_total = rows.back();
  EXPECT_EQ(decode_total["time_s"].get<double>(), decode.time.value.value());
  EXPECT_EQ(decode_total["bound"], "memory");
  // The summary beside the rows: the library's serving figures (vLLM's definitions) and the memory.
  const hml::generation g{4, 512, 32};
  const hml::serving_figures serving = hml::serving(hml::analyze_generation(hml::models::llama_2_7b, g, d, expected), g);
  const hml::serving_figures bound = hml::serving(hml::analyze_generation(hml::models::llama_2_7b, g, d), g);
  const auto summary = nlohmann::ordered_json::parse(r.out)["summary"];
  EXPECT_EQ(summary.begin().key(), "time_to_first_token_s");
  EXPECT_EQ(summary["time_to_first_token_s"].get<double>(), serving.time_to_first_token.value.value());
  EXPECT_EQ(summary["time_to_first_token_s"].get<double>(), prefill.time.value.value());
  EXPECT_EQ(summary["time_per_output_token_s"].get<double>(), serving.time_per_output_token.value.value());
  EXPECT_EQ(summary["end_to_end_latency_s"].get<double>(), serving.end_to_end.value.value());
  EXPECT_EQ(summary["output_tokens_per_s"].get<double>(), serving.output_throughput.per_second);
  EXPECT_EQ(summary["memory_per_device_B"].get<double>(), hml::memory_needed(hml::models::llama_2_7b, 4, 544).total().value());
  EXPECT_EQ(summary["memory_capacity_B"].get<double>(), hml::capacity_of(d).value());
  // The ideal bound beside the expected time, and alone with --bound.
  EXPECT_EQ(summary["bound_time_to_first_token_s"].get<double>(), bound.time_to_first_token.value.value());
  EXPECT_EQ(summary["bound_time_per_output_token_s"].get<double>(), bound.time_per_output_token.value.value());
  EXPECT_EQ(summary["bound_end_to_end_latency_s"].get<double>(), bound.end_to_end.value.value());
  EXPECT_EQ(summary["bound_output_tokens_per_s"].get<double>(), bound.output_throughput.per_second);
  EXPECT_LT(bound.end_to_end.value.value(), serving.end_to_end.value.value());
  // Where decode turns compute-bound, as the table's ridge line says (a trial found it in the table alone): null
  // where it never does (here: Llama 2 7B's full-width KV cache), Llama 2 70B's batch on an H100 at context 129.
  EXPECT_FALSE(hml::ridge_batch(hml::models::llama_2_7b, 513, d, expected).reached());
  EXPECT_TRUE(summary["decode_ridge_batch"].is_null()) << summary;
  const outcome reached = llm({"--model", "llama-2-70b", "--device", "h100_sxm", "--prompt", "128", "--generate", "2", "--format", "json"});
  ASSERT_EQ(reached.status, 0) << reached.err;
  const hml::machine_description h100 = hml::with_figures(hml::devices::h100_sxm, hml::basis::measured_where_published);
  EXPECT_EQ(nlohmann::json::parse(reached.out)["summary"]["decode_ridge_batch"].get<double>(),
            hml::ridge_batch(hml::models::llama_2_70b, 129, h100, expected).batch());
  const outcome at_bound = llm({"--model", "llama-2-7b", "--device", "a100_sxm_80gb", "--batch", "4", "--prompt", "512",
                               "--generate", "32", "--bound", "--format", "json"});
  ASSERT_EQ(at_bound.status, 0) << at_bound.err;
  const auto bound_summary = nlohmann::json::parse(at_bound.out)["summary"];
  EXPECT_EQ(bound_summary["time_to_first_token_s"].get<double>(), bound.time_to_first_token.value.value());
  EXPECT_FALSE(bound_summary.contains("bound_time_to_first_token_s"));
  // One token generated: no time per output token (null), as vLLM reports none.
  const outcome one = llm({"--model", "llama-2-7b", "--device", "a100_sxm_80gb", "--generate", "1", "--format", "json"});
  ASSERT_EQ(one.status, 0) << one.err;
  EXPECT_TRUE(nlohmann::json::parse(one.out)["summary"]["time_per_output_token_s"].is_null());
  // The CSV is the rows alone.
  const outcome csv = llm({"--model", "llama-2-7b", "--device", "a100_sxm_80gb", "--format", "csv"});
  EXPECT_TRUE(csv.out.starts_with("phase,operator,")) << csv.out;
}

// The `time:` line and the JSON's `estimate` say which time is computed and from what: a machine's SMs and
// kernel overhead where it has them. A machine file with SMs and no overhead (cli/my_gpu.yaml) tiles its
// GEMMs and pays no overhead; a CPU has no tensor units to tile on.
TEST(LlmCli, TheTimeLineSaysWhichEstimate) {
  const std::string my_gpu = (fs::path{HML_SOURCE_DIR} / "cli/my_gpu.yaml").string();
  const outcome catalog = llm({"--model", "llama-2-7b", "--machine", "h100_sxm"});
  ASSERT_EQ(catalog.status, 0) << catalog.err;
  EXPECT_NE(catalog.out.find("\ntime: expected (128 x 128 tiles, K split past 1024, in waves over 132 SMs, 4.68 us a kernel, prefill "
                             "attention at 347 TFLOP/s on its causal tiles; --bound for the ideal bound)\n"),
            std::string::npos)
      << catalog.out;
  // A weight-only INT4 decode step takes the machine's INT4 weight rate, and says so; INT8 weights do not.
  const outcome at_rate = llm({"--model", "llama-2-7b", "--machine", "a100_sxm_80gb", "--weights", "int4", "--weight-group",
                               "32", "--activations", "bf16", "--context", "512"});
  EXPECT_NE(at_rate.out.find("\ntime: expected (128 x 128 tiles, K split past 1024, in waves over 108 SMs, 4.62 us a kernel, "
                             "INT4 weights at 1.121 TB/s; --bound for the ideal bound)\n"),
            std::string::npos)
      << at_rate.out;
  const outcome int8 = llm({"--model", "llama-2-7b", "--machine", "a100_sxm_80gb", "--weights", "int8", "--activations",
                            "bf16", "--context", "512"});
  ASSERT_EQ(int8.status, 0) << int8.err;
  EXPECT_EQ(int8.out.find("INT4 weights at"), std::string::npos) << int8.out;
  const outcome file = llm({"--model", "llama-2-7b", "--machine", my_gpu});
  EXPECT_NE(file.out.find("\ntime: expected (128 x 128 tiles, K split past 1024, in waves over 108 SMs, no kernel overhead published; "),
            std::string::npos)
      << file.out;
  const outcome json = llm({"--model", "llama-2-7b", "--machine", my_gpu, "--format", "json"});
  ASSERT_EQ(json.status, 0) << json.err;
  const auto parsed = nlohmann::json::parse(json.out);
  EXPECT_EQ(parsed["summary"]["estimate"], "expected");
  for (const auto& row : parsed["operators"]) EXPECT_EQ(row["overhead_s"].get<double>(), 0.0) << row;
  const outcome cpu = llm({"--model", "llama-2-7b", "--machine", "grace", "--weights", "fp32", "--activations", "fp32",
                           "--kv", "fp32"});
  ASSERT_EQ(cpu.status, 0) << cpu.err;
  EXPECT_NE(cpu.out.find("\ntime: expected (no tensor units, no tiles, no kernel overhead published; "), std::string::npos)
      << cpu.out;
  const outcome bound = llm({"--model", "llama-2-7b", "--machine", "h100_sxm", "--bound", "--format", "json"});
  EXPECT_EQ(nlohmann::json::parse(bound.out)["summary"]["estimate"], "bound");
  EXPECT_NE(llm({"--model", "llama-2-7b", "--machine", "h100_sxm", "--bound"}).out.find("\ntime: ideal bound (--bound)\n"),
            std::string::npos);
}

// --elementwise fused runs rotary, the cache store, the residual adds and the MLP's activation inside their
// neighbours' kernels (llm-analysis's convention): their rows leave the table, the time line and the JSON say
// so, the figures are the library's with elementwise_kernels::fused, a step's FLOP stay, and --compare takes it
// for every run.
TEST(LlmCli, ElementwiseFusedFoldsThoseOperatorsIntoTheirNeighbours) {
  const std::initializer_list<std::string> run{"--model", "llama-2-7b", "--machine", "a100_sxm_80gb", "--bound", "--figures", "stated"};
  const outcome separate = llm(run);
  const outcome fused = llm(run, {"--elementwise", "fused"});
  ASSERT_EQ(fused.status, 0) << fused.err;
  for (const char* row : {"\nrotary ", "\nKV cache store ", "\nresidual add ", "\nSwiGLU "}) {
    EXPECT_NE(separate.out.find(row), std::string::npos) << row;
    EXPECT_EQ(fused.out.find(row), std::string::npos) << row;
  }
  EXPECT_NE(fused.out.find("\ntime: ideal bound (--bound); element-wise operations fused (rotary and cache store in "
                           "attention, residual adds in the norms, the MLP's activation in its up projection: "
                           "--elementwise fused)\n"),
            std::string::npos)
      << fused.out;
  const hml::inference_options fused_bound{.elementwise = hml::elementwise_kernels::fused};
  const hml::generation g{1, 512, 32};
  const auto library = hml::serving(hml::analyze_generation(hml::models::llama_2_7b, g, hml::devices::a100_sxm_80gb, fused_bound), g);
  const auto json = nlohmann::json::parse(llm(run, {"--elementwise", "fused", "--format", "json"}).out);
  EXPECT_EQ(json["summary"]["elementwise"], "fused");
  EXPECT_EQ(json["summary"]["time_to_first_token_s"].get<double>(), library.time_to_first_token.value.value());
  EXPECT_EQ(json["summary"]["time_per_output_token_s"].get<double>(), library.time_per_output_token.value.value());
  EXPECT_EQ(nlohmann::json::parse(llm(run, {"--format", "json"}).out)["summary"]["elementwise"], "separate");
  // The prefill's FLOP are the same either way: each fused operation's join the kernel it runs in.
  const auto prefill_flops = [](const nlohmann::json& parsed) {
    double sum = 0;
    for (const auto& row : parsed["operators"])
      if (row["phase"] == "prefill" && row["operator"] != "total") sum += row["flops"].get<double>();
    return sum;
  };
  EXPECT_NEAR(prefill_flops(json) / prefill_flops(nlohmann::json::parse(llm(run, {"--format", "json"}).out)), 1.0, 1e-12);
  expect_input_error(llm(run, {"--elementwise", "fuse"}), "--elementwise: 'fuse' is not one of separate, fused; did you mean fused?");
  const std::string runs = (fs::path{HML_SOURCE_DIR} / "examples/llm/held-out-runs.csv").string();
  const outcome compared = llm({"--compare", runs, "--elementwise", "fused"});
  ASSERT_EQ(compared.status, 0) << compared.err;
  EXPECT_NE(compared.out.find("the ideal bound); element-wise operations fused ("), std::string::npos) << compared.out;
}

// --context N is one decode step over N tokens: the generation's decode step at that context (prompt N - 1),
// each request's time per output token the step's time, the batch's tokens over it the output rate.
TEST(LlmCli, ContextIsOneDecodeStep) {
  const outcome step = llm({"--model", "llama-2-7b", "--device", "a100_sxm_80gb", "--batch", "8", "--context", "4096",
                            "--format", "json"});
  ASSERT_EQ(step.status, 0) << step.err;
  const outcome run = llm({"--model", "llama-2-7b", "--device", "a100_sxm_80gb", "--batch", "8", "--prompt", "4095",
                           "--generate", "2", "--format", "json"});
  ASSERT_EQ(run.status, 0) << run.err;
  const auto rows = nlohmann::json::parse(step.out)["operators"];
  auto decode_rows = nlohmann::json::array();
  const auto run_json = nlohmann::json::parse(run.out);
  for (const auto& row : run_json["operators"]) {
    if (row["phase"] == "decode") decode_rows.push_back(row);
  }
  EXPECT_EQ(rows, decode_rows);
  const hml::machine_description d = hml::with_figures(hml::devices::a100_sxm_80gb, hml::basis::measured_where_published);
  const hml::step_analysis decode = hml::analyze_step(hml::models::llama_2_7b, hml::decode_step(8, 4096), d, expected);
  const auto summary = nlohmann::json::parse(step.out)["summary"];
  EXPECT_EQ(summary["time_per_output_token_s"].get<double>(), decode.time.value.value());
  EXPECT_EQ(summary["output_tokens_per_s"].get<double>(), hml::throughput(decode.time, decode.produced()).per_second);
  EXPECT_EQ(summary["bound_time_per_output_token_s"].get<double>(),
            hml::analyze_step(hml::models::llama_2_7b, hml::decode_step(8, 4096), d).time.value.value());
  EXPECT_EQ(summary["memory_per_device_B"].get<double>(), hml::memory_needed(hml::models::llama_2_7b, 8, 4096).total().value());
  const outcome table = llm({"--model", "llama-2-7b", "--device", "a100_sxm_80gb", "--batch", "8", "--context", "4096"});
  ASSERT_EQ(table.status, 0) << table.err;
  EXPECT_TRUE(table.out.starts_with("llama-2-7b (6.738 B parameters) on NVIDIA A100 SXM4 80GB: batch 8, one decode step at "
                                    "context 4096\n"))
      << table.out;
  EXPECT_NE(table.out.find("\ntime per output token (each request's; the step): "), std::string::npos) << table.out;
  EXPECT_EQ(table.out.find("prefill"), std::string::npos);
  expect_input_error(llm({"--model", "llama-2-7b", "--device", "a100_sxm_80gb", "--context", "4096", "--prompt", "5"}),
                     "--prompt, --context: not together; give one of them");
  expect_input_error(llm({"--model", "llama-2-7b", "--device", "a100_sxm_80gb", "--context", "4096", "--as-kernels",
                          "prefill"}),
                     "--as-kernels, --context: --context runs one decode step; give --as-kernels decode");
  expect_input_error(llm({"--model", "llama-2-7b", "--device", "a100_sxm_80gb", "--context", "0"}), "--context: ");
  // Llama-2 is made for 4,096 positions: at 4,096 nothing is said; past them the step is counted and a note
  // says the model was not made for it, for --context and for a generation alike.
  const std::string past = "hml: note: llama-2-7b is made for contexts of up to 4096 tokens (max_position_embeddings in "
                           "its config.json); this run reaches ";
  EXPECT_EQ(table.err.find(past), std::string::npos) << table.err;
  const outcome long_step = llm({"--model", "llama-2-7b", "--device", "a100_sxm_80gb", "--context", "8192"});
  ASSERT_EQ(long_step.status, 0) << long_step.err;
  EXPECT_NE(long_step.err.find(past + "8192, which is counted all the same\n"), std::string::npos) << long_step.err;
  const outcome long_run = llm({"--model", "llama-2-7b", "--device", "a100_sxm_80gb", "--prompt", "4000", "--generate", "97"});
  ASSERT_EQ(long_run.status, 0) << long_run.err;
  EXPECT_NE(long_run.err.find(past + "4097, "), std::string::npos) << long_run.err;
}

TEST(LlmCli, CsvHasOneRowPerOperatorAndTotals) {
  const outcome r = llm({"--model", "mistral-7b", "--device", "h100_sxm", "--format", "csv"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.out.starts_with("phase,operator,flops,bytes_read,bytes_written,intensity,bound,compute_time_s,"));
  EXPECT_NE(r.out.find("decode,total,"), std::string::npos);
  EXPECT_NE(r.out.find("prefill,attention (fused),"), std::string::npos);
}

// The intensity is FLOP per byte of main memory: none for an all-reduce, whose bytes are the link's (it
// read 0 FLOP/B), and the step's own on its total row (it was empty). The forty-ninth trial.
TEST(LlmCli, AnOperatorThatMovesNoMemoryHasNoIntensityAndATotalHasItsOwn) {
  const auto run = [](std::initializer_list<std::string> more) {
    return llm({"--model", "llama-2-7b", "--device", "h100_sxm", "--tp", "2", "--link", "nvlink4", "--prompt", "16",
                "--generate", "2"},
               more);
  };
  const outcome csv = run({"--format", "csv"});
  ASSERT_EQ(csv.status, 0) << csv.err;
  EXPECT_NE(csv.out.find("\nprefill,all-reduce,0,0,0,,link,"), std::string::npos) << csv.out;
  const std::size_t total = csv.out.find("\nprefill,total,");
  ASSERT_NE(total, std::string::npos) << csv.out;
  std::vector<std::string> cells;
  std::string cell;
  for (std::size_t at = total + 1; at < csv.out.size() && csv.out[at] != '\r' && csv.out[at] != '\n'; ++at) {
    if (csv.out[at] == ',') {
      cells.push_back(cell);
      cell.clear();
    } else {
      cell += csv.out[at];
    }
  }
  ASSERT_GE(cells.size(), 6U) << csv.out;
  EXPECT_EQ(std::stod(cells[5]), std::stod(cells[2]) / (std::stod(cells[3]) + std::stod(cells[4])));
  const outcome table = run({});
  ASSERT_EQ(table.status, 0) << table.err;
  EXPECT_EQ(table.out.find("0 FLOP/B       link"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("15.42 FLOP/B   memory"), std::string::npos) << table.out;
}

TEST(LlmCli, ExplicitSizesAreThePreset) {
  const outcome preset = llm({"--model", "llama-3-8b", "--device", "h100_sxm", "--format", "csv"});
  const outcome sizes = llm({"--layers", "32", "--hidden", "4096", "--ffn", "14336", "--heads", "32", "--kv-heads", "8",
                            "--vocab", "128256", "--device", "h100_sxm", "--format", "csv"});
  ASSERT_EQ(preset.status, 0) << preset.err;
  EXPECT_EQ(preset.out, sizes.out);
}


TEST(LlmCli, TableSaysWhatBindsAndWhetherItFits) {
  const outcome r = llm({"--model", "llama-2-70b", "--device", "h100_sxm", "--weights", "int4", "--kv", "fp8",
                        "--tp", "2", "--link", "nvlink4", "--link-latency", "5us"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("link: 370 GB/s per direction, full duplex, 5 us a message; all-reduce by ring\n"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("all-reduce"), std::string::npos);
  EXPECT_NE(r.out.find("(fits; "), std::string::npos);
  EXPECT_NE(r.out.find("time to first token: "), std::string::npos);
  const outcome big = llm({"--model", "llama-2-70b", "--device", "a100_sxm_80gb"});
  EXPECT_NE(big.out.find("(does NOT fit; 0 sequences of 544 tokens at most)"), std::string::npos) << big.out;
}

// A paged KV cache and a share of the memory, as vLLM serves: the cache in whole blocks, the largest batch
// that fits in the share (the library's figures: 27 sequences of 4,096 tokens in all of an H100's 80 GB, 24 in
// vLLM's 90 %), in the table and the JSON summary; a share outside (0, 1] is one line.
TEST(LlmCli, PagedCacheAndMemoryUtilizationBoundTheBatch) {
  const outcome whole = llm({"--model", "llama-2-7b", "--device", "h100_sxm", "--context", "4096"});
  ASSERT_EQ(whole.status, 0) << whole.err;
  EXPECT_NE(whole.out.find("of 80 GB (fits; 27 sequences of 4096 tokens at most)"), std::string::npos) << whole.out;
  const outcome vllm = llm({"--model", "llama-2-7b", "--device", "h100_sxm", "--context", "4100", "--kv-block", "16",
                           "--memory-utilization", "0.9"});
  ASSERT_EQ(vllm.status, 0) << vllm.err;
  EXPECT_NE(vllm.out.find("KV cache (blocks of 16 tokens) 2.156 GB"), std::string::npos) << vllm.out;  // 4,112 slots
  EXPECT_NE(vllm.out.find("of 72 GB (90 % of 80 GB) (fits; 24 sequences of 4100 tokens at most)"), std::string::npos) << vllm.out;
  const outcome json = llm({"--model", "llama-2-7b", "--device", "h100_sxm", "--context", "4096", "--memory-utilization", "0.9",
                           "--format", "json"});
  ASSERT_EQ(json.status, 0) << json.err;
  EXPECT_EQ(nlohmann::json::parse(json.out)["summary"]["largest_batch"].get<double>(),
            static_cast<double>(hml::largest_batch(hml::models::llama_2_7b, 4096, hml::devices::h100_sxm,
                                                   {.memory = {.memory_utilization = 0.9}})));
  expect_input_error(llm({"--model", "llama-2-7b", "--device", "h100_sxm", "--memory-utilization", "0"}),
                     "--memory-utilization: the memory utilization must be within (0, 1]");
}

// --link reads a link as `hml offload --link` does: a catalog link is hml.catalog.systems' typed link (NVLink 4:
// 370 GB/s per direction measured, NCCL's ring, in place of the datasheet's 18 x 25 = 450 GB/s; full duplex,
// 1.93 us a message), the same as that rate and latency given by hand; the JSON's link
// times are the library's over it. Over PCIe 5.0 x16 at TP 4 the link binds the prefill (see transformer.cpp).
TEST(LlmCli, LinkIsTheCatalogsTypedLink) {
  const outcome named = llm({"--model", "llama-2-70b", "--device", "h100_sxm", "--tp", "4", "--link", "nvlink4",
                            "--format", "json"});
  const outcome rate = llm({"--model", "llama-2-70b", "--device", "h100_sxm", "--tp", "4", "--link", "370GB/s",
                           "--link-latency", "1.93us", "--format", "json"});
  ASSERT_EQ(named.status, 0) << named.err;
  EXPECT_EQ(named.out, rate.out);
  const outcome stated = llm({"--model", "llama-2-70b", "--device", "h100_sxm", "--tp", "4", "--link", "nvlink4",
                             "--figures", "stated", "--format", "json"});
  const outcome datasheet = llm({"--model", "llama-2-70b", "--device", "h100_sxm", "--tp", "4", "--link", "450GB/s",
                                "--link-latency", "1.93us", "--figures", "stated", "--format", "json"});
  ASSERT_EQ(stated.status, 0) << stated.err;
  EXPECT_EQ(stated.out, datasheet.out);
  const hml::inference_options over_pcie{
      .tensor_parallel = 4, .link = hml::link_of(hml::systems::pcie5_x16), .estimate = hml::estimate::expected};
  const auto prefill = hml::analyze_step(hml::models::llama_2_70b, hml::prefill_step(1, 512), hml::devices::h100_sxm,
                                         over_pcie);
  const outcome pcie = llm({"--model", "llama-2-70b", "--device", "h100_sxm", "--tp", "4", "--link", "pcie5x16",
                           "--format", "json"});
  ASSERT_EQ(pcie.status, 0) << pcie.err;
  const auto rows = nlohmann::json::parse(pcie.out)["operators"];
  const auto& total = rows[prefill.operators.size()];
  EXPECT_EQ(total["operator"], "total");
  EXPECT_EQ(total["link_time_s"].get<double>(), prefill.link_time.value());
  EXPECT_EQ(total["bound"], "link");
  EXPECT_EQ(prefill.bound(), hml::limit::link);
}

// --all-reduce nvls: NCCL's NVLink SHARP on 8 devices, at the link's measured NVLS bus bandwidth (478.87 GB/s on
// 8 H100s) with one message's latency; the JSON's link times are the library's over nvls_link_of. What no
// figure holds, and a tree inside a node (NCCL runs none), are one line each.
TEST(LlmCli, AllReduceByAlgorithm) {
  const std::vector<std::string> run{"--model", "llama-2-70b", "--device", "h100_sxm", "--tp", "8", "--link", "nvlink4",
                                     "--batch", "8", "--prompt", "2048", "--generate", "2"};
  const auto with = [&](std::vector<std::string> more) {
    std::vector<std::string> args{"llm"};
    args.insert(args.end(), run.begin(), run.end());
    args.insert(args.end(), more.begin(), more.end());
    return hml_run(args);
  };
  const outcome nvls = with({"--all-reduce", "nvls", "--format", "json"});
  ASSERT_EQ(nvls.status, 0) << nvls.err;
  EXPECT_NE(nvls.err.find("hml: note: nvlink4: NVLS all-reduce at its measured bus bandwidth, 478.9 GB/s on 8 devices"),
            std::string::npos) << nvls.err;
  const hml::inference_options options{.tensor_parallel = 8,
                                       .link = hml::nvls_link_of(hml::systems::nvlink4),
                                       .all_reduce = hml::all_reduce_algorithm::nvls,
                                       .estimate = hml::estimate::expected};
  const hml::machine_description measured = hml::with_figures(hml::devices::h100_sxm, hml::basis::measured_where_published);
  const auto prefill = hml::analyze_step(hml::models::llama_2_70b, hml::prefill_step(8, 2048), measured, options);
  const auto rows = nlohmann::json::parse(nvls.out)["operators"];
  EXPECT_EQ(rows[prefill.operators.size()]["link_time_s"].get<double>(), prefill.link_time.value());
  const outcome ring = with({"--all-reduce", "ring"});
  const outcome table = with({"--all-reduce", "nvls"});
  ASSERT_EQ(ring.status, 0) << ring.err;
  EXPECT_NE(ring.out.find("link: 370 GB/s per direction, full duplex, 1.93 us a message; all-reduce by ring\n"),
            std::string::npos) << ring.out;
  EXPECT_NE(table.out.find("link: 478.9 GB/s of NVLS bus bandwidth, full duplex, 1.93 us a message; all-reduce by nvls\n"),
            std::string::npos) << table.out;
  EXPECT_EQ(ring.out, with({}).out);  // ring is the default
  expect_input_error(llm({"--model", "llama-2-70b", "--device", "h100_sxm", "--tp", "4", "--link", "nvlink4",
                          "--all-reduce", "nvls"}),
                     "--all-reduce, --tp: NVLS is measured on 8 devices (--tp 8)");
  expect_input_error(llm({"--model", "llama-2-70b", "--device", "h100_sxm", "--tp", "8", "--link", "400GB/s",
                          "--all-reduce", "nvls"}),
                     "--all-reduce, --link: NVLS takes a described link's measured NVLS bus bandwidth, and 400GB/s is not one");
  expect_input_error(llm({"--model", "llama-2-70b", "--device", "a100_sxm_80gb", "--tp", "8", "--link", "nvlink3",
                          "--all-reduce", "nvls"}),
                     "--all-reduce, --link: the link publishes no NVLS all-reduce");
  expect_input_error(with({"--all-reduce", "tree"}), "--all-reduce: NCCL runs no tree inside a node");
  expect_input_error(llm({"--model", "llama-2-7b", "--device", "h100_sxm", "--all-reduce", "ring"}),
                     "--all-reduce: how the tensor-parallel devices all-reduce; give --tp 2 or more with it");
  expect_input_error(llm({"--model", "llama-2-7b", "--device", "h100_sxm", "--all-reduce", "bus"}),
                     "--all-reduce: \"bus\" is not an algorithm; give ring, nvls or one-shot");
  expect_input_error(with({"--all-reduce", ""}), "--all-reduce: an empty value (an unset variable?); give ALGORITHM (see `hml llm --help`)");
  // One-shot: the library's link time over the link's measured rate, three latencies an all-reduce.
  const outcome one_shot = with({"--all-reduce", "one-shot", "--format", "json"});
  ASSERT_EQ(one_shot.status, 0) << one_shot.err;
  hml::inference_options shot = options;
  shot.link = hml::link_of(hml::systems::nvlink4, hml::basis::measured_where_published);
  shot.all_reduce = hml::all_reduce_algorithm::one_shot;
  const auto shot_prefill = hml::analyze_step(hml::models::llama_2_70b, hml::prefill_step(8, 2048), measured, shot);
  const auto shot_rows = nlohmann::json::parse(one_shot.out)["operators"];
  EXPECT_EQ(shot_rows[shot_prefill.operators.size()]["link_time_s"].get<double>(), shot_prefill.link_time.value());
  EXPECT_NE(with({"--all-reduce", "one-shot"}).out.find("link: 370 GB/s per direction, full duplex, 1.93 us a message; "
                                                        "all-reduce by one-shot\n"),
            std::string::npos);
}

// A mixture of experts: the preset and the same sizes given by hand are one model; its router and its
// experts' reads are the library's.
TEST(LlmCli, MixtureOfExpertsIsThePresetsAnalysis) {
  const outcome preset = llm({"--model", "mixtral-8x7b", "--device", "h200", "--batch", "2", "--format", "json"});
  const outcome sizes = llm({"--layers", "32", "--hidden", "4096", "--ffn", "14336", "--heads", "32", "--kv-heads", "8",
                            "--vocab", "32000", "--experts", "8", "--active-experts", "2", "--device", "h200",
                            "--batch", "2", "--format", "json"});
  ASSERT_EQ(preset.status, 0) << preset.err;
  EXPECT_EQ(preset.out, sizes.out);
  const auto rows = nlohmann::json::parse(preset.out)["operators"];
  const auto decode = hml::analyze_step(hml::models::mixtral_8x7b, hml::decode_step(2, 513),
                                         hml::with_figures(hml::devices::h200, hml::basis::measured_where_published),
                                         expected);
  EXPECT_EQ(rows.back()["time_s"].get<double>(), decode.time.value.value());
  EXPECT_NE(preset.out.find("\"router\""), std::string::npos);
}

TEST(LlmCli, AsKernelsFeedsTheChart) {
  const outcome r = llm({"--model", "llama-3-8b", "--device", "h100_sxm", "--batch", "64", "--as-kernels", "decode"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto decode = hml::analyze_step(hml::models::llama_3_8b, hml::decode_step(64, 513), hml::devices::h100_sxm);
  EXPECT_TRUE(r.out.starts_with("name,flops,memory_bytes\r\n")) << r.out;
  const std::string row = "gate+up projection,";
  const std::size_t at = r.out.find(row);
  ASSERT_NE(at, std::string::npos) << r.out;
  EXPECT_EQ(std::stod(r.out.substr(at + row.size())), decode.operators[8].op.flops.value());
  // And `hml chart` draws them.
  const scratch_directory dir;
  const std::string command = shell_quoted(HML_CLI) + " llm --model llama-3-8b --device h100_sxm --batch 64 --as-kernels decode | " +
                              shell_quoted(HML_CLI) + " chart --device h100_sxm --precision fp16 --ops - -o " +
                              shell_quoted((dir.path / "decode.svg").string());
  EXPECT_EQ(std::system(command.c_str()), 0);
  EXPECT_NE(read_file(dir.path / "decode.svg").find("gate+up projection"), std::string::npos);
}

TEST(LlmCli, HelpShowsAnExample) {
  const outcome r = llm({"--help"});
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("Example: hml llm --model llama-2-7b"), std::string::npos);
}

// A bad input: one line, exit status 2, nothing on stdout and no file written for -o.
void expect_one_line_error(std::initializer_list<std::string> args, std::string_view part) {
  const scratch_directory dir;
  const fs::path file = dir.path / "out.csv";
  expect_input_error(llm(args, {"-o", file.string()}), part);
  EXPECT_FALSE(fs::exists(file));
}

// A GPT-style block (LayerNorm, biases, learned positions, a plain MLP, tied embeddings) given by its sizes
// is the GPT-2 XL preset; its positions end at the table's last row, and the title says what was changed.
TEST(LlmCli, GptStyleBlockSizesAreThePreset) {
  const outcome preset = llm({"--model", "gpt2-xl", "--device", "a100_sxm_80gb", "--format", "csv"});
  const outcome sizes = llm({"--layers", "48", "--hidden", "1600", "--ffn", "6400", "--heads", "25", "--vocab", "50257",
                            "--no-gated", "--biases", "--tied-embeddings", "--norm", "layer", "--learned-positions", "1024",
                            "--device", "a100_sxm_80gb", "--format", "csv"});
  ASSERT_EQ(preset.status, 0) << preset.err;
  EXPECT_EQ(preset.out, sizes.out);
  EXPECT_NE(preset.out.find("position embedding"), std::string::npos);
  EXPECT_EQ(preset.out.find("rotary"), std::string::npos);
  const outcome table = llm({"--model", "gpt2-xl", "--device", "a100_sxm_80gb"});
  EXPECT_TRUE(table.out.starts_with("gpt2-xl (1.558 B parameters) on NVIDIA A100 SXM4 80GB")) << table.out.substr(0, 120);
  const outcome changed = llm({"--model", "llama-2-7b", "--device", "a100_sxm_80gb", "--biases", "--norm", "layer"});
  EXPECT_TRUE(changed.out.starts_with("llama-2-7b with --biases, --norm layer (")) << changed.out.substr(0, 120);
  expect_one_line_error({"--model", "gpt2-xl", "--device", "a100_sxm_80gb", "--prompt", "1000", "--generate", "32"},
                        "--prompt, --generate: a context of 1032 tokens is longer than gpt2-xl's table of 1024 learned "
                        "positions, past which no token has a position");
  expect_one_line_error({"--model", "gpt2-xl", "--device", "a100_sxm_80gb", "--context", "1025"},
                        "--context: a context of 1025 tokens is longer than gpt2-xl's table of 1024 learned positions");
  expect_one_line_error({"--model", "gpt2-xl", "--device", "a100_sxm_80gb", "--norm", "batch"}, "--norm: 'batch' is not one of rms, layer; give one of them");
}

// Qwen2.5 7B given by its sizes and --qkv-biases is the preset (biases on Q, K and V alone); without the
// flag its QKV projection reads fewer weights.
TEST(LlmCli, QkvBiasSizesAreTheQwenPreset) {
  const std::vector<std::string> sizes{"llm",       "--layers", "28",     "--hidden",  "3584",     "--ffn",
                                       "18944",     "--heads",  "28",     "--kv-heads", "4",       "--vocab",
                                       "152064",    "--machine", "h100_sxm", "--format", "csv"};
  const outcome preset = llm({"--model", "qwen2.5-7b", "--machine", "h100_sxm", "--format", "csv"});
  ASSERT_EQ(preset.status, 0) << preset.err;
  std::vector<std::string> with_flag = sizes;
  with_flag.push_back("--qkv-biases");
  EXPECT_EQ(preset.out, hml_run(with_flag).out);
  EXPECT_NE(preset.out, hml_run(sizes).out);
  const outcome table = llm({"--model", "llama-3-8b", "--machine", "h100_sxm", "--qkv-biases"});
  EXPECT_TRUE(table.out.starts_with("llama-3-8b with --qkv-biases (")) << table.out.substr(0, 120);
  // On a preset that has them the flag changes nothing, and the title does not name it.
  const outcome qwen = llm({"--model", "qwen2.5-7b", "--machine", "h100_sxm", "--qkv-biases"});
  EXPECT_TRUE(qwen.out.starts_with("qwen2.5-7b (")) << qwen.out.substr(0, 120);
}

// INT4 weights in groups of 32 (gpt-fast's): 5 bits a weight with BF16 scales and zero points, said in the
// heading, read in every step and held in memory.
TEST(LlmCli, WeightGroupsAddTheirScalesToTheWeights) {
  const auto run = [](std::initializer_list<std::string> more) {
    return llm({"--model", "llama-2-7b", "--machine", "a100_sxm_80gb", "--weights", "int4", "--activations", "bf16",
                "--kv", "bf16", "--batch", "1", "--prompt", "5", "--generate", "200"},
               more);
  };
  const outcome g32 = run({"--weight-group", "32"});
  ASSERT_EQ(g32.status, 0) << g32.err;
  EXPECT_NE(g32.out.find("precisions: weights INT4 in groups of 32, activations BF16"), std::string::npos) << g32.out;
  const auto with_groups = nlohmann::json::parse(run({"--weight-group", "32", "--format", "json"}).out);
  const auto without = nlohmann::json::parse(run({"--format", "json"}).out);
  // One bit more for each of Llama 2 7B's 6,738,415,616 weights.
  EXPECT_DOUBLE_EQ(with_groups["summary"]["memory_per_device_B"].get<double>() - without["summary"]["memory_per_device_B"].get<double>(),
                   6'738'415'616.0 / 8);
  // A decode step reads a quarter more weight bytes; its kernels' fixed costs and its cache do not grow.
  const double slower = with_groups["summary"]["time_per_output_token_s"].get<double>() /
                        without["summary"]["time_per_output_token_s"].get<double>();
  EXPECT_GT(slower, 1.1);
  EXPECT_LT(slower, 1.25);
}

TEST(LlmCli, BadInputsGiveOneLineAndExit2) {
  expect_one_line_error({"--model", "llama-9", "--device", "h100_sxm"}, "--model: unknown model 'llama-9'; known models: llama-2-7b");
  // The same did-you-mean as for machines, links and systems.
  expect_one_line_error({"--model", "llama-2-7", "--device", "h100_sxm"},
                        "--model: unknown model 'llama-2-7'; did you mean llama-2-7b, llama-2-70b?");
  expect_one_line_error({"--model", "llama-2-7b", "--device", "h10"}, "--device: unknown machine 'h10'");
  expect_one_line_error({"--device", "h100_sxm"}, "--model: no model given; give a preset (see `hml llm --help`), or --layers");
  expect_one_line_error({"--model", "llama-2-7b", "--device", "h100_sxm", "--batch", "0"}, "--batch: '0' is below 1; give a whole number from 1");
  expect_one_line_error({"--model", "llama-2-7b", "--device", "h100_sxm", "--weights", "fp7"}, "--weights: unknown precision 'fp7'");
  // A weight group is INT8's or INT4's, of 2 to 2^20 weights.
  expect_one_line_error({"--model", "llama-2-7b", "--device", "h100_sxm", "--weight-group", "32"},
                        "--weight-group: a weight group is INT8's or INT4's (NVFP4 and MXFP4 count their blocks' scales themselves); give int8 or int4 weights with it");
  expect_one_line_error({"--model", "llama-2-7b", "--device", "h100_sxm", "--weights", "int4", "--weight-group", "1"},
                        "--weight-group: '1' is below 2; give a whole number from 2 to 1048576");
  // A group divides every projection's rows: 3000 divides neither 4096 nor 11008.
  expect_one_line_error({"--model", "llama-2-7b", "--device", "h100_sxm", "--weights", "int4", "--weight-group", "3000"},
                        "--weight-group: a group of 3000 does not divide every projection's rows");
  // A precision the device lacks: named, with what the device has, as --precision spells them everywhere.
  expect_one_line_error({"--model", "llama-2-7b", "--device", "a100_sxm_80gb", "--weights", "fp8", "--activations", "fp8"},
                        "publishes no FP8 tensor peak (for the QKV projection); it has fp64_vector, fp64_tensor, fp32_vector, "
                        "tf32_tensor, bf16_tensor, fp16_tensor, int8_tensor, int4_tensor");
  // INT4 weights and activations (w4a4) run on the A100's INT4 tensor cores; the H100 has none.
  const outcome w4a4 = llm({"--model", "llama-2-7b", "--device", "a100_sxm_80gb", "--weights", "int4", "--activations", "int4"});
  EXPECT_EQ(w4a4.status, 0) << w4a4.err;
  expect_one_line_error({"--model", "llama-2-7b", "--device", "h100_sxm", "--weights", "int4", "--activations", "int4"},
                        "publishes no INT4 tensor peak");
  // Block-scaled FP4 runs on the B200's FP4 tensor cores; a Hopper has none. Its weights carry their scales:
  // NVFP4's 4.5 bits a parameter make Llama-2 7B's 13.48 GB of FP16 weights 3.79 GB.
  const outcome fp4 = llm({"--model", "llama-2-7b", "--device", "b200", "--weights", "nvfp4", "--activations", "nvfp4",
                           "--kv", "fp8"});
  ASSERT_EQ(fp4.status, 0) << fp4.err;
  EXPECT_NE(fp4.out.find("precisions: weights NVFP4, activations NVFP4, KV cache FP8"), std::string::npos) << fp4.out;
  EXPECT_NE(fp4.out.find("memory per device: weights 3.79 GB"), std::string::npos) << fp4.out;
  expect_one_line_error({"--model", "llama-2-7b", "--device", "h100_sxm", "--weights", "mxfp4", "--activations", "mxfp4"},
                        "publishes no MXFP4 tensor peak");
  expect_one_line_error({"--model", "llama-2-7b", "--device", "h100_sxm", "--tp", "2"}, "--link: --tp above 1");
  expect_one_line_error({"--model", "llama-2-7b", "--device", "h100_sxm", "--tp", "3", "--link", "450GB/s"},
                        "--tp: 3 devices do not divide llama-2-7b's 32 heads and FFN size of 11008; give --tp 1, 2, 4, 8, 16 or 32");
  expect_one_line_error({"--model", "llama-2-7b", "--device", "h100_sxm", "--tp", "2", "--link", "fast"},
                        "--link: unknown link 'fast'; expected one of pcie3x16");
  expect_one_line_error({"--model", "llama-2-7b", "--device", "h100_sxm", "--tp", "2", "--link", "0GB/s"}, "--link: ");
  expect_one_line_error({"--model", "llama-2-7b", "--device", "h100_sxm", "--tp", "2", "--link", "nvlink4",
                         "--link-latency", "-1us"},
                        "--link-latency: ");
  expect_one_line_error({"--model", "llama-2-7b", "--device", "h100_sxm", "--experts", "2", "--active-experts", "3"},
                        "1 <= active experts <= experts");
  expect_one_line_error({"--model", "llama-2-7b", "--device", "h100_sxm", "--efficiency-memory", "1.5"},
                        "--efficiency-memory: the memory efficiency must be within (0, 1]");
  expect_one_line_error({"--model", "llama-3-8b", "--device", "h100_sxm", "--heads", "12", "--head-dim", "128"},
                        "--heads, --kv-heads (8, llama-3-8b's): 8 key-value heads for 12 heads, where each key-value head serves as many heads as the others; give "
                        "key-value heads that divide the heads: 1, 2, 3, 4, 6 or 12");
  expect_one_line_error({"--model", "llama-2-7b", "--device", "h100_sxm", "--heads", "33"},
                        "--heads, --hidden (4096, llama-2-7b's): 4096 is not a multiple of 33 heads");
  expect_one_line_error({"--model", "llama-2-7b", "--device", "h100_sxm", "--batch", "-1"}, "--batch: '-1' has a minus sign; give a whole number from 1 to 1000000000");
  expect_one_line_error({"--model", "llama-2-7b", "--device", "h100_sxm", "--prompt", "1.5"}, "--prompt: '1.5' is not a whole number; give a whole number from 1");
  expect_one_line_error({"--model", "llama-2-7b", "--device", "h100_sxm", "--batch", "1000000000", "--prompt",
                         "1000000000"},
                        "--batch, --prompt, --generate (32, the default): a context of 1000000032 tokens at batch 1000000000 is too large to "
                        "count (element counts must stay below 2^62); give a context of at most 1501 tokens, or a smaller --batch");
}

// Pipeline parallelism: the rows are the busiest stage's for every micro-batch, and a row says what that
// stage waits; the summary and the memory are the library's pipeline. Its options' slips are one line each.
TEST(LlmCli, PipelineStagesAreTheLibrarysPipeline) {
  const outcome r = llm({"--model", "llama-2-70b", "--device", "h100_sxm", "--pp", "2", "--pp-link", "50GB/s",
                         "--pp-link-latency", "5us", "--batch", "4", "--prompt", "512", "--generate", "16", "--figures",
                         "stated", "--format", "json"});
  ASSERT_EQ(r.status, 0) << r.err;
  using namespace hml::literals;
  hml::inference_options two_stages = expected;
  two_stages.pipeline = {.stages = 2, .link = {50_GBps, 5_us}};
  const auto& d = hml::devices::h100_sxm;
  const auto& t = hml::models::llama_2_70b;
  const auto prefill = hml::analyze_step(t, hml::prefill_step(4, 512), d, two_stages);
  ASSERT_GT(prefill.pipeline_wait.value(), 0);
  const auto rows = nlohmann::json::parse(r.out)["operators"];
  const auto& wait = rows[prefill.operators.size()];
  EXPECT_EQ(wait["operator"], "pipeline wait");
  EXPECT_EQ(wait["time_s"].get<double>(), prefill.pipeline_wait.value());
  EXPECT_EQ(rows[prefill.operators.size() + 1]["time_s"].get<double>(), prefill.time.value.value());
  const hml::generation g{4, 512, 16};
  const hml::serving_figures serving = hml::serving(hml::analyze_generation(t, g, d, two_stages), g);
  const auto summary = nlohmann::json::parse(r.out)["summary"];
  EXPECT_EQ(summary["time_to_first_token_s"].get<double>(), serving.time_to_first_token.value.value());
  EXPECT_EQ(summary["time_per_output_token_s"].get<double>(), serving.time_per_output_token.value.value());
  EXPECT_EQ(summary["memory_per_device_B"].get<double>(), hml::memory_needed(t, 4, 528, two_stages).total().value());
  // The table names the stages, the micro-batches and the link.
  const outcome table = llm({"--model", "llama-2-70b", "--device", "h100_sxm", "--pp", "4", "--tp", "2", "--link",
                             "nvlink4", "--pp-link", "50GB/s", "--micro-batches", "2", "--batch", "5", "--context", "1024"});
  ASSERT_EQ(table.status, 0) << table.err;
  EXPECT_NE(table.out.find("on NVIDIA H100 SXM5 80GB x 8: batch 5"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("pipeline: 4 stages of 20, 20, 20, 20 layers, 2 devices each; 2 micro-batches of up to 3 "
                           "sequences a step; hand-offs at 50 GB/s per direction, 0 s latency"),
            std::string::npos)
      << table.out;
  // Its wait moves no FLOP and no byte: 0 as in CSV and JSON (it was blank in the table alone).
  EXPECT_NE(table.out.find("\npipeline wait       0 FLOP       0 B       0 B     "), std::string::npos) << table.out;
  expect_one_line_error({"--model", "llama-2-7b", "--device", "h100_sxm", "--pp", "2"}, "--pp-link: --pp above 1 needs the link");
  expect_one_line_error({"--model", "llama-2-7b", "--device", "h100_sxm", "--pp", "65", "--pp-link", "nvlink4"},
                        "--pp: '65' is above 64; give a whole number from 1 to 64");
  expect_one_line_error({"--model", "llama-2-7b", "--device", "h100_sxm", "--pp", "33", "--pp-link", "nvlink4"},
                        "--pp: 33 stages for 32 layers, where a stage holds at least one layer; give --pp 32 or fewer");
  expect_one_line_error({"--model", "llama-2-7b", "--device", "h100_sxm", "--micro-batches", "2"},
                        "--micro-batches: a pipeline step's micro-batches; give --pp 2 or more with it");
  expect_one_line_error({"--model", "llama-2-7b", "--device", "h100_sxm", "--pp", "2", "--pp-link", "nvlink4",
                         "--micro-batches", "0"},
                        "--micro-batches: '0' is below 1; give a whole number from 1 to 1024");
  expect_one_line_error({"--model", "llama-2-7b", "--device", "h100_sxm", "--pp-link", "nvlink4"},
                        "--pp-link: the link between pipeline stages; give --pp 2 or more with it");
  expect_one_line_error({"--model", "llama-2-7b", "--device", "h100_sxm", "--pp", "2", "--pp-link", "slow"},
                        "--pp-link: unknown link 'slow'");
  expect_one_line_error({"--model", "llama-2-7b", "--device", "h100_sxm", "--pp", "2", "--pp-link", "nvlink4",
                         "--pp-link-latency", "5GB"},
                        "--pp-link-latency: ");
}

// DeepSeek-V3 through the command line: the JSON's rows and summary are the library's (latent attention and
// DeepSeekMoE are derived in tests/compile_time/latent_attention.cpp); its options describe another such model
// (Kimi K2: DeepSeek-V3's block with 64 heads, 384 experts and one dense layer); a latent option on a model
// without latent attention, or one that leaves out what latent attention needs, is one line.
// The JSON's operator rows are the library's step: each operator's name and time, and the total after them.
void expect_rows_of(const nlohmann::json& rows, const hml::step_analysis& step) {
  ASSERT_EQ(rows.size(), step.operators.size() + 1);
  for (std::size_t i = 0; i < step.operators.size(); ++i) {
    EXPECT_EQ(rows[i]["operator"], std::string{step.operators[i].op.name});
    EXPECT_EQ(rows[i]["time_s"].get<double>(), step.operators[i].time.value());
  }
}

TEST(LlmCli, LatentAttentionAndSharedExperts) {
  const outcome r = llm({"--model", "deepseek-v3", "--machine", "h200", "--tp", "8", "--link", "nvlink4", "--weights", "fp8",
                         "--activations", "bf16", "--kv", "bf16", "--batch", "8", "--context", "4096", "--figures", "stated",
                         "--format", "json"});
  ASSERT_EQ(r.status, 0) << r.err;
  using namespace hml::literals;
  hml::inference_options o = expected;
  o.types = {hml::precision::fp8, hml::precision::bf16, hml::precision::bf16};
  o.tensor_parallel = 8;
  o.link = hml::link_of(hml::systems::nvlink4);
  const auto& t = hml::models::deepseek_v3;
  const auto step = hml::analyze_step(t, hml::decode_step(8, 4096), hml::devices::h200, o);
  const auto json = nlohmann::json::parse(r.out);
  const auto& rows = json["operators"];
  expect_rows_of(rows, step);
  EXPECT_EQ(rows[3]["operator"], "latent norms");
  EXPECT_EQ(rows[5]["operator"], "KV up projection (absorbed)");
  EXPECT_EQ(json["summary"]["memory_per_device_B"].get<double>(), hml::memory_needed(t, 8, 4096, o).total().value());

  // Kimi K2 (moonshotai/Kimi-K2-Instruct's config.json): 1.026 T parameters, 32.86 G of them active (its card: 1 T, 32 B).
  const outcome kimi = llm({"--model", "deepseek-v3", "--heads", "64", "--kv-heads", "64", "--experts", "384",
                            "--dense-layers", "1", "--vocab", "163840", "--machine", "h200", "--context", "1024"});
  ASSERT_EQ(kimi.status, 0) << kimi.err;
  EXPECT_NE(kimi.out.find("deepseek-v3 with --heads 64, --kv-heads 64, --vocab 163840, --experts 384, --dense-layers 1 "
                          "(1026 B parameters)"),
            std::string::npos)
      << kimi.out;
  // --dense-layers 0 takes the dense layers' size with them; the model is one of experts throughout.
  EXPECT_EQ(llm({"--model", "deepseek-v3", "--dense-layers", "0", "--machine", "h200", "--context", "64"}).status, 0);
  expect_one_line_error({"--model", "llama-2-7b", "--kv-lora-rank", "512", "--machine", "h200"},
                        "--kv-lora-rank, --q-lora-rank (0, llama-2-7b's), --rope-head-dim (0, llama-2-7b's), --value-head-dim (0, "
                        "llama-2-7b's): latent attention (a KV rank) needs its query rank, rotary "
                        "dimension and value dimension >= 1");
  expect_one_line_error({"--model", "llama-2-7b", "--rope-head-dim", "64", "--machine", "h200"},
                        "--rope-head-dim: a query rank, rotary dimension or value dimension needs latent attention's KV rank");
  expect_one_line_error({"--model", "llama-2-7b", "--shared-experts", "1", "--machine", "h200"},
                        "--shared-experts: shared experts, dense first layers and router biases belong to a mixture of experts");
  expect_one_line_error({"--model", "deepseek-v3", "--kv-heads", "8", "--machine", "h200"},
                        "--kv-heads, --heads (128, deepseek-v3's): latent attention gives every head its keys: kv heads = heads");
  expect_one_line_error({"--model", "deepseek-v3", "--dense-layers", "61", "--machine", "h200"},
                        "--dense-layers, --layers (61, deepseek-v3's): dense first layers leave at least one layer of experts");
  expect_one_line_error({"--model", "deepseek-v3", "--shared-experts", "-1", "--machine", "h200"}, "--shared-experts: ");
}

// Speculative decoding through the command line: the line and the JSON summary carry the library's figures
// (tests/compile_time/transformer.cpp derives them); a draft of another vocabulary, an acceptance outside
// [0, 1] or one without a draft is one line.
TEST(LlmCli, SpeculativeDecodingWithADraftModel) {
  const std::initializer_list<std::string> args{"--model", "llama-2-70b", "--device", "h100_sxm", "--weights", "int4",
                                                "--context", "1024", "--draft", "llama-2-7b", "--acceptance", "0.8",
                                                "--figures", "stated"};  // the catalog's datasheet figures, as below
  const outcome table = llm(args);
  ASSERT_EQ(table.status, 0) << table.err;
  EXPECT_NE(table.out.find("speculative decoding (draft llama-2-7b, 4 tokens ahead, acceptance 0.8): 3.362 tokens a step"),
            std::string::npos)
      << table.out;
  const outcome json = llm(args, {"--format", "json"});
  ASSERT_EQ(json.status, 0) << json.err;
  const auto summary = nlohmann::json::parse(json.out)["summary"];
  const hml::speculative_step s =
      hml::speculative_decoding(hml::models::llama_2_70b, hml::models::llama_2_7b, 1, 1024, 4, 0.8, hml::devices::h100_sxm,
                                {.types = {.weights = hml::precision::int4}, .estimate = hml::estimate::expected});
  EXPECT_DOUBLE_EQ(summary["speculative_tokens_per_step"].get<double>(), s.tokens_per_step);
  EXPECT_DOUBLE_EQ(summary["speculative_time_per_output_token_s"].get<double>(), s.per_output_token.value.value());
  // The memory holds the draft beside the model.
  EXPECT_DOUBLE_EQ(summary["memory_per_device_B"].get<double>(),
                   hml::memory_needed(hml::models::llama_2_70b, hml::models::llama_2_7b, 1, 1024,
                                      {.types = {.weights = hml::precision::int4}})
                       .total()
                       .value());
  EXPECT_DOUBLE_EQ(summary["speculative_speedup"].get<double>(), s.speedup());
  expect_input_error(llm({"--model", "llama-3-8b", "--device", "h100_sxm", "--draft", "llama-2-7b", "--acceptance", "0.8"}),
                     "--draft: llama-2-7b has a vocabulary of 32000 tokens, the model 128256");
  expect_input_error(llm({"--model", "llama-2-70b", "--device", "h100_sxm", "--acceptance", "0.8"}),
                     "--acceptance: the share of a draft model's tokens accepted; give --draft with it");
  expect_input_error(llm({"--model", "llama-2-70b", "--device", "h100_sxm", "--draft", "llama-2-7b", "--acceptance", "1.2"}),
                     "--acceptance: the acceptance rate must be within [0, 1]");
  expect_input_error(llm({"--model", "llama-2-70b", "--device", "h100_sxm", "--draft", "llama-2-7b"}),
                     "--acceptance: missing, and --draft needs the share of its tokens the target accepts; give it, e.g. --acceptance 0.8");
  // A misspelt draft is said before the share it would need (the seventieth trial: --acceptance was asked for).
  expect_input_error(llm({"--model", "llama-2-70b", "--device", "h100_sxm", "--draft", "llama-2-7x"}),
                     "--draft: unknown model 'llama-2-7x'; did you mean llama-2-7b");
}

// Chunked prefill through the command line: the line and the JSON summary carry the library's time; a chunk
// with --context (one decode step, no prefill) is refused.
TEST(LlmCli, ChunkedPrefillBesideThePrefillAtOnce) {
  const outcome table = llm({"--model", "llama-2-7b", "--device", "h100_sxm", "--prompt", "4096", "--generate", "2", "--chunk",
                             "512", "--figures", "stated", "--bound"});
  ASSERT_EQ(table.status, 0) << table.err;
  EXPECT_NE(table.out.find("chunked prefill (512 tokens a step): time to first token 67.71 ms in 8 steps (0.953x the prefill at once)"),
            std::string::npos)
      << table.out;
  const outcome json = llm({"--model", "llama-2-7b", "--device", "h100_sxm", "--prompt", "4096", "--generate", "2", "--chunk",
                            "512", "--figures", "stated", "--format", "json"});
  ASSERT_EQ(json.status, 0) << json.err;
  EXPECT_DOUBLE_EQ(nlohmann::json::parse(json.out)["summary"]["chunked_time_to_first_token_s"].get<double>(),
                   hml::chunked_prefill(hml::models::llama_2_7b, 1, 4096, 512, hml::devices::h100_sxm, expected).time.value.value());
  // Each chunk is a step of kernels: an expected time pays their overhead once a chunk, and the tiles' waves.
  EXPECT_GT(nlohmann::json::parse(json.out)["summary"]["chunked_time_to_first_token_s"].get<double>(),
            hml::chunked_prefill(hml::models::llama_2_7b, 1, 4096, 512, hml::devices::h100_sxm).time.value.value());
  const outcome both = llm({"--model", "llama-2-7b", "--device", "h100_sxm", "--context", "4096", "--chunk", "512"});
  EXPECT_EQ(both.status, 2) << both.err;
  EXPECT_NE(both.err.find("--chunk"), std::string::npos) << both.err;
  // Each chunk is a step analysed: at most 10^6 of them (a chunk of one token on 10^8 would take half an hour).
  expect_one_line_error({"--model", "llama-2-7b", "--device", "h100_sxm", "--prompt", "1000001", "--chunk", "1"},
                        "--chunk: a chunked prefill takes at most 1000000 steps (the prompt over the chunk); give a larger chunk");
  static_assert(hml::max_prefill_chunks == 1'000'000);
}

// A mixture of experts data-parallel over 8 devices, its experts whole: the step's rows and the memory the
// library's, the heading says who runs what, and each combination hml does not model is one line.
TEST(LlmCli, DataParallelAttentionAndWholeExperts) {
  const std::vector<std::string> args{"--model", "deepseek-v3", "--machine", "h200", "--tp", "8", "--link", "nvlink4",
                                      "--weights", "fp8", "--activations", "fp8", "--kv", "bf16", "--batch", "1024",
                                      "--context", "2048", "--dp-attention", "--ep"};
  std::vector<std::string> with_command{"llm"};
  with_command.insert(with_command.end(), args.begin(), args.end());
  std::vector<std::string> as_json = with_command;
  for (const std::string a : {"--format", "json"}) as_json.push_back(a);
  const outcome r = hml_run(as_json);
  ASSERT_EQ(r.status, 0) << r.err;
  hml::inference_options o = expected;
  o.types = {hml::precision::fp8, hml::precision::fp8, hml::precision::bf16};
  o.tensor_parallel = 8;
  o.link = hml::link_of(hml::systems::nvlink4);
  o.experts = {.data_parallel_attention = true, .expert_parallel = true};
  const auto& t = hml::models::deepseek_v3;
  const hml::machine_description h200 = hml::with_figures(hml::devices::h200, hml::basis::measured_where_published);
  hml::inference_options measured_link = o;
  measured_link.link = hml::link_of(hml::systems::nvlink4, hml::basis::measured_where_published);
  const auto step = hml::analyze_step(t, hml::decode_step(1024, 2048), h200, measured_link);
  const auto json = nlohmann::json::parse(r.out);
  const auto& rows = json["operators"];
  expect_rows_of(rows, step);
  EXPECT_EQ(json["summary"]["memory_per_device_B"].get<double>(), hml::memory_needed(t, 1024, 2048, o).total().value());
  const outcome table = hml_run(with_command);
  ASSERT_EQ(table.status, 0) << table.err;
  EXPECT_NE(table.out.find("\ndata-parallel attention: each of 8 devices its own sequences with whole attention weights; the "
                           "256 experts whole, 32 a device, every device's tokens gathered to them and scattered back each "
                           "layer\n"),
            std::string::npos)
      << table.out;
  const outcome generation = llm({"--model", "deepseek-v3", "--machine", "h200", "--tp", "8", "--link", "nvlink4", "--weights",
                                  "fp8", "--activations", "fp8", "--batch", "64", "--prompt", "512", "--generate", "2",
                                  "--dp-attention", "--ep"});
  ASSERT_EQ(generation.status, 0) << generation.err;
  EXPECT_NE(generation.out.find("a message; all-gather and reduce-scatter by ring\n"), std::string::npos) << generation.out;
  expect_one_line_error({"--model", "deepseek-v3", "--machine", "h200", "--ep"},
                        "--ep: spreads the experts over the --tp devices; give --tp 2 or more with it");
  expect_one_line_error({"--model", "llama-2-7b", "--machine", "h200", "--tp", "8", "--ep"},
                        "--ep: llama-2-7b is dense: expert parallelism spreads a mixture of experts' experts");
  expect_one_line_error({"--model", "mixtral-8x7b", "--machine", "h100_sxm", "--tp", "2", "--link", "nvlink4", "--ep", "--draft",
                         "mistral-7b", "--acceptance", "0.7"},
                        "--draft, --ep: mistral-7b is dense");
  expect_one_line_error({"--model", "deepseek-v3", "--machine", "h200", "--dp-attention"},
                        "--dp-attention: spreads the sequences over the --tp devices; give --tp 2 or more with it");
  expect_one_line_error({"--model", "llama-2-7b", "--machine", "h200", "--tp", "8", "--dp-attention"},
                        "--dp-attention: llama-2-7b is dense: data-parallel attention serves a mixture of experts");
  expect_one_line_error({"--model", "deepseek-v3", "--machine", "h200", "--tp", "8", "--dp-attention", "--pp", "2",
                         "--pp-link", "nvlink4"},
                        "--dp-attention, --pp: data-parallel attention is not modelled with pipeline stages");
  expect_one_line_error({"--model", "deepseek-v3", "--machine", "h200", "--tp", "8", "--dp-attention", "--all-reduce", "nvls",
                         "--link", "nvlink4"},
                        "--all-reduce: data-parallel attention gathers and scatters");
  expect_one_line_error({"--model", "mixtral-8x7b", "--machine", "h200", "--tp", "16", "--dp-attention", "--ep"},
                        "--ep, --tp: 8 experts do not divide over 16 devices");
}

// --- hml llm --compare ------------------------------------------------------------------------------

constexpr std::string_view runs_header =
    "model,machine,tp,link,weights,activations,kv,batch,prompt,generate,ttft,tpot,e2e,output_tokens_per_s,system,source\n";

// Each measured figure beside the library's prediction of the same run (hml::serving of
// hml::analyze_generation, on the machine's measured figures as `hml llm` runs by default), its relative
// error, and the mean absolute error over all of them and over each kind.
TEST(LlmCli, CompareSetsEachMeasuredFigureBesideTheLibrarysPrediction) {
  const scratch_directory dir;
  const fs::path runs = dir.file("runs.csv", std::string{runs_header} +
                                                 "llama-2-7b,a100_sxm_80gb,1,,fp16,fp16,fp16,1,128,128,22 ms,0.01 s,,102.21,LMDeploy,lmdeploy docs\n"
                                                 "llama-2-70b,h100_sxm,4,nvlink4,fp8,fp8,fp8,1,128,1,19.6 ms,,,,TensorRT-LLM,trt docs\n"
                                                 "\"llama-2-7b\",a100_sxm_80gb,1,,fp16,fp16,fp16,64,128,128,,,2.7 s,3024.07,LMDeploy,\"lmdeploy docs\"\n");
  const outcome r = llm({"--compare", runs.string(), "--format", "json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto json = nlohmann::json::parse(r.out);
  const auto& rows = json["comparisons"];
  ASSERT_EQ(rows.size(), 6u);  // three figures, one, two

  const auto predicted = [](const hml::transformer& t, const hml::machine_description& m, hml::generation g,
                            const hml::inference_options& o) {
    return hml::serving(hml::analyze_generation(t, g, hml::with_figures(m, hml::basis::measured_where_published), o), g);
  };
  const hml::serving_figures seven = predicted(hml::models::llama_2_7b, hml::devices::a100_sxm_80gb, {1, 128, 128}, expected);
  const hml::inference_options fp8_tp4{.types = {hml::precision::fp8, hml::precision::fp8, hml::precision::fp8},
                                       .tensor_parallel = 4,
                                       .link = hml::link_of(hml::systems::nvlink4, hml::basis::measured_where_published),
                                       .estimate = hml::estimate::expected};
  const hml::serving_figures seventy = predicted(hml::models::llama_2_70b, hml::devices::h100_sxm, {1, 128, 1}, fp8_tp4);
  const hml::serving_figures batch = predicted(hml::models::llama_2_7b, hml::devices::a100_sxm_80gb, {64, 128, 128}, expected);
  const struct {
    double line;
    std::string metric;
    double measured, predicted;
  } want[] = {{2, "TTFT", 0.022, seven.time_to_first_token.value.value()},
                  {2, "TPOT", 0.01, seven.time_per_output_token.value.value()},
                  {2, "output tokens/s", 102.21, seven.output_throughput.per_second},
                  {3, "TTFT", 0.0196, seventy.time_to_first_token.value.value()},
                  {4, "end-to-end", 2.7, batch.end_to_end.value.value()},
                  {4, "output tokens/s", 3024.07, batch.output_throughput.per_second}};
  std::vector<double> errors;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(rows[i]["line"].get<double>(), want[i].line);
    EXPECT_EQ(rows[i]["metric"], want[i].metric);
    EXPECT_DOUBLE_EQ(rows[i]["measured"].get<double>(), want[i].measured);
    EXPECT_EQ(rows[i]["predicted"].get<double>(), want[i].predicted);
    EXPECT_EQ(rows[i]["error"].get<double>(), hml::relative_error(want[i].predicted, want[i].measured));
    errors.push_back(rows[i]["error"].get<double>());
  }
  EXPECT_EQ(rows[0]["system"], "LMDeploy");
  EXPECT_EQ(rows[5]["source"], "lmdeploy docs");
  // A prediction below a measured time is a negative error.
  EXPECT_LT(rows[0]["error"].get<double>(), 0);
  const auto& summary = json["summary"];
  EXPECT_EQ(summary["figures"].get<double>(), 6);
  EXPECT_DOUBLE_EQ(summary["mean_absolute_percentage_error"].get<double>(), hml::mean_absolute_error(errors) * 100);
  EXPECT_EQ(summary["ttft_figures"].get<double>(), 2);
  EXPECT_DOUBLE_EQ(summary["ttft_mean_absolute_percentage_error"].get<double>(),
                   (std::abs(errors[0]) + std::abs(errors[3])) / 2 * 100);
  EXPECT_EQ(summary["e2e_figures"].get<double>(), 1);

  // The table: one row a figure, the error signed, the sources numbered, the mean error by kind.
  const outcome table = llm({"--compare", runs.string()});
  ASSERT_EQ(table.status, 0) << table.err;
  EXPECT_NE(table.out.find("3 measured runs of " + runs.string() + ", predicted as expected times ("), std::string::npos)
      << table.out;
  EXPECT_NE(table.out.find(" at efficiency: compute 100 %, memory 100 %"), std::string::npos) << table.out;
  const outcome at_bound = llm({"--compare", runs.string(), "--bound"});
  EXPECT_NE(at_bound.out.find(", predicted at the ideal bound at efficiency"), std::string::npos) << at_bound.out;
  EXPECT_NE(table.out.find("[1] lmdeploy docs\n[2] trt docs\n"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("over 6 figures (TTFT "), std::string::npos) << table.out;
  // The efficiencies apply to every run: at the bound, halving the bandwidth's share doubles a memory-bound
  // TPOT (an expected time adds its kernels' overhead, which no bandwidth changes).
  const outcome full = llm({"--compare", runs.string(), "--bound", "--format", "json"});
  const outcome half = llm({"--compare", runs.string(), "--bound", "--efficiency-memory", "0.5", "--format", "json"});
  ASSERT_EQ(half.status, 0) << half.err;
  const auto halved = nlohmann::json::parse(half.out)["comparisons"];
  EXPECT_DOUBLE_EQ(halved[1]["predicted"].get<double>(),
                   2 * nlohmann::json::parse(full.out)["comparisons"][1]["predicted"].get<double>());
}

// A run of requests (the optional columns) is served by continuous batching, `batch` being the scheduler's
// max batch; its figures are the library's averages.
TEST(LlmCli, CompareServesARunOfRequestsByContinuousBatching) {
  const scratch_directory dir{"runs"};
  const fs::path runs = dir.file(
      "runs.csv", "max_tokens,requests," + std::string{runs_header} +
                      "4096,3000,llama-3-8b,h100_sxm,1,,fp16,fp16,fp16,512,1000,1000,,,,7041.47,TensorRT-LLM,perf-overview\n"
                      ",300,llama-3-8b,h100_sxm,1,,fp16,fp16,fp16,64,128,128,2 s,,,,TensorRT-LLM,perf-overview\n");
  const outcome r = llm({"--compare", runs.string(), "--format", "json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto rows = nlohmann::json::parse(r.out)["comparisons"];
  ASSERT_EQ(rows.size(), 2u);
  const hml::machine_description h100 = hml::with_figures(hml::devices::h100_sxm, hml::basis::measured_where_published);
  const hml::request_class thousand[] = {{3000, 1000, 1000}};
  const hml::request_class short_ones[] = {{300, 128, 128}};
  EXPECT_EQ(rows[0]["predicted"].get<double>(),
            hml::continuous_batching(hml::models::llama_3_8b, thousand, {.max_batch = 512, .max_tokens = 4096}, h100, expected)
                .output_throughput.per_second);
  EXPECT_EQ(rows[0]["requests"].get<double>(), 3000);
  EXPECT_EQ(rows[1]["predicted"].get<double>(),
            hml::continuous_batching(hml::models::llama_3_8b, short_ones, {.max_batch = 64}, h100, expected)
                .mean_time_to_first_token.value.value());
  const fs::path bad = dir.file("bad.csv", "max_tokens," + std::string{runs_header} +
                                               "4096,llama-3-8b,h100_sxm,1,,fp16,fp16,fp16,512,1000,1000,,,,7041.47,s,src\n");
  expect_one_line_error({"--compare", bad.string()}, "bad.csv:2: max_tokens: a continuous batch's limit; give requests with it");
  const fs::path long_prompt = dir.file("long.csv", "max_tokens,requests," + std::string{runs_header} +
                                                        "512,8,llama-3-8b,h100_sxm,1,,fp16,fp16,fp16,8,1000,10,,,,10,s,src\n");
  expect_one_line_error({"--compare", long_prompt.string()}, "long.csv:2: prompt, max_tokens: a prompt of 1000 tokens is longer than a step's 512 max tokens; this "
                        "scheduler does not chunk a prompt: give a shorter prompt or max_tokens 1000 or more");
  // A run given twice would count its errors twice in the mean (a trial's finding): refused at the second.
  const std::string row = "4096,llama-3-8b,h100_sxm,1,,fp16,fp16,fp16,512,1000,1000,,,,7041.47,s,src\n";
  const fs::path twice = dir.file("twice.csv", "requests," + std::string{runs_header} + row + row);
  expect_one_line_error({"--compare", twice.string()}, "twice.csv:3: the run of line 2 again, figure for figure; give each run once");
  // However its figures are written (the forty-fourth trial: tp 01 beside tp 1, 7.04147 ks/s as a rate's text).
  const std::string written_otherwise = "4096,llama-3-8b,h100_sxm,01,,fp16,fp16,fp16,512,1000,1000,,,,7041.470,s,src\n";
  const fs::path again = dir.file("again.csv", "requests," + std::string{runs_header} + row + written_otherwise);
  expect_one_line_error({"--compare", again.string()}, "again.csv:3: the run of line 2 again, figure for figure");
}

// Whole experts under tensor-parallel attention (vLLM's --enable-expert-parallel): the step's rows and the
// memory the library's, and the heading says who runs what.
TEST(LlmCli, WholeExpertsWithTensorParallelAttention) {
  const outcome r = llm({"--model", "deepseek-v3", "--machine", "h200", "--tp", "8", "--link", "nvlink4", "--weights", "fp8",
                         "--activations", "fp8", "--kv", "bf16", "--batch", "1024", "--context", "2048", "--ep", "--format",
                         "json"});
  ASSERT_EQ(r.status, 0) << r.err;
  hml::inference_options o = expected;
  o.types = {hml::precision::fp8, hml::precision::fp8, hml::precision::bf16};
  o.tensor_parallel = 8;
  o.link = hml::link_of(hml::systems::nvlink4, hml::basis::measured_where_published);
  o.experts = {.expert_parallel = true};
  const auto& t = hml::models::deepseek_v3;
  const hml::machine_description h200 = hml::with_figures(hml::devices::h200, hml::basis::measured_where_published);
  const auto json = nlohmann::json::parse(r.out);
  expect_rows_of(json["operators"], hml::analyze_step(t, hml::decode_step(1024, 2048), h200, o));
  EXPECT_EQ(json["summary"]["memory_per_device_B"].get<double>(), hml::memory_needed(t, 1024, 2048, o).total().value());
  // Not tensor parallelism's step: its experts split by width read every expert's slice.
  hml::inference_options tensor = o;
  tensor.experts = {};
  EXPECT_NE(json["summary"]["memory_per_device_B"].get<double>(), hml::memory_needed(t, 1024, 2048, tensor).total().value());
  const outcome table = llm({"--model", "mixtral-8x7b", "--machine", "h100_sxm", "--tp", "2", "--link", "nvlink4", "--ep",
                             "--context", "1024"});
  ASSERT_EQ(table.status, 0) << table.err;
  EXPECT_NE(table.out.find("\nexpert parallelism: the 8 experts whole, 4 a device, each running its share of the tokens' "
                           "experts; attention tensor-parallel over the 2, the experts' sums all-reduced each layer\n"),
            std::string::npos)
      << table.out;
}

// The runs file's `parallel` column: a run of data-parallel attention (and whole experts) is predicted as hml llm
// --dp-attention (--ep) predicts it, and says so in the table; another value is the run's line.
TEST(LlmCli, CompareTakesHowAMixtureOfExpertsRan) {
  const scratch_directory dir{"parallel"};
  const std::string run = "deepseek-v3,h200,8,nvlink4,fp8,fp8,bf16,64,1024,16,,,,1000,s,src,";
  const fs::path runs = dir.file("runs.csv", std::string{runs_header}.substr(0, runs_header.size() - 1) + ",parallel\n" + run +
                                                 "dp-attention+ep\n" + run + "dp-attention\n" + run + "\n" + run + "ep\n");
  const outcome r = llm({"--compare", runs.string(), "--format", "json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto rows = nlohmann::json::parse(r.out)["comparisons"];
  ASSERT_EQ(rows.size(), 4U);
  EXPECT_EQ(rows[0]["parallel"], "dp-attention+ep");
  EXPECT_EQ(rows[1]["parallel"], "dp-attention");
  EXPECT_EQ(rows[2]["parallel"], "");
  EXPECT_EQ(rows[3]["parallel"], "ep");
  for (std::size_t i = 0; i < 4; ++i) {
    std::vector<std::string> args{"--model", "deepseek-v3", "--machine", "h200", "--tp", "8", "--link", "nvlink4", "--weights",
                                  "fp8", "--activations", "fp8", "--kv", "bf16", "--batch", "64", "--prompt", "1024",
                                  "--generate", "16", "--format", "json"};
    if (i < 2) args.push_back("--dp-attention");
    if (i == 0 || i == 3) args.push_back("--ep");
    std::vector<std::string> command{"llm"};
    command.insert(command.end(), args.begin(), args.end());
    const outcome one = hml_run(command);
    ASSERT_EQ(one.status, 0) << one.err;
    EXPECT_EQ(rows[i]["predicted"].get<double>(),
              nlohmann::json::parse(one.out)["summary"]["output_tokens_per_s"].get<double>()) << i;
  }
  EXPECT_NE(rows[0]["predicted"].get<double>(), rows[2]["predicted"].get<double>());
  EXPECT_NE(rows[3]["predicted"].get<double>(), rows[2]["predicted"].get<double>());
  const fs::path bad = dir.file("bad.csv", std::string{runs_header}.substr(0, runs_header.size() - 1) + ",parallel\n" + run + "tp\n");
  expect_one_line_error({"--compare", bad.string()}, "bad.csv:2: parallel: \"tp\" is none of dp-attention, dp-attention+ep and ep");
  const fs::path dense = dir.file("dense.csv", std::string{runs_header}.substr(0, runs_header.size() - 1) + ",parallel\n" +
                                                   "llama-2-7b,h200,8,nvlink4,fp8,fp8,bf16,64,1024,16,,,,1000,s,src,dp-attention\n");
  expect_one_line_error({"--compare", dense.string()}, "dense.csv:2: parallel: llama-2-7b is dense");
}

// The shipped file of published runs is read whole: every run predicted, every source cited.
TEST(LlmCli, CompareReadsTheShippedMeasuredRuns) {
  const outcome r = llm({"--compare", std::string{HML_SOURCE_DIR} + "/examples/llm/measured-runs.csv", "--format", "csv"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.out.starts_with("line,model,machine,tp,parallel,weights,batch,requests,prompt,generate,metric,measured,"
                                "predicted,error,system,source\r\n"))
      << r.out.substr(0, 200);
  EXPECT_GE(std::count(r.out.begin(), r.out.end(), '\n'), 40);
}

// The held-out set (docs/explanation/llm-measured-runs.md): 65 runs of four serving systems that no part of the
// model was built on, predicted within issue 31's 25 % on average at the default settings.
TEST(LlmCli, CompareReadsTheHeldOutRuns) {
  const outcome r = llm({"--compare", std::string{HML_SOURCE_DIR} + "/examples/llm/held-out-runs.csv", "--format", "json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto json = nlohmann::json::parse(r.out);
  EXPECT_EQ(json["comparisons"].size(), 65u);
  EXPECT_EQ(json["summary"]["estimate"], "expected");
  EXPECT_LT(json["summary"]["mean_absolute_percentage_error"].get<double>(), 25.0) << json["summary"];
  // What the set spans: four serving systems, four machines, batch 1 and large batches, one device and
  // several, and first-token times of its own beside throughputs and end-to-end latencies.
  std::set<std::string> systems, machines, metrics, weights;
  std::set<double> batches, tps;
  for (const auto& row : json["comparisons"]) {
    weights.insert(row["weights"].get<std::string>());
    systems.insert(row["system"].get<std::string>());
    machines.insert(row["machine"].get<std::string>());
    metrics.insert(row["metric"].get<std::string>());
    batches.insert(row["batch"].get<double>());
    tps.insert(row["tp"].get<double>());
  }
  EXPECT_EQ(systems.size(), 4u);
  EXPECT_EQ(machines, (std::set<std::string>{"a100_sxm_80gb", "h100_sxm", "h200", "l40s"}));
  EXPECT_EQ(metrics.size(), 3u);
  EXPECT_EQ(*batches.begin(), 1.0);
  EXPECT_EQ(*batches.rbegin(), 4096.0);
  EXPECT_EQ(tps, (std::set<double>{1, 2, 4, 8}));
  // Runs that differ only in their weights say so: gpt-fast's int4 in groups of 32.
  EXPECT_EQ(weights, (std::set<std::string>{"bf16", "fp16", "fp8", "int4/32", "int8"}));
  // gpt-fast's and vLLM's tensor-parallel runs all-reduce one-shot, as their engines do (the parallel column).
  EXPECT_EQ(std::count_if(json["comparisons"].begin(), json["comparisons"].end(),
                          [](const auto& row) { return row["parallel"] == "one-shot"; }),
            12);
}

// A file of runs: each bad cell is one line naming the file, the line and the column (or the option whose
// value it takes); the options of one run are refused beside it.
TEST(LlmCli, CompareRefusesBadRunsInOneLine) {
  const scratch_directory dir{"runs"};  // expect_one_line_error has a "files" directory of its own
  const auto compare = [&](std::string_view rows, std::string_view needle, std::string_view header = runs_header) {
    const fs::path runs = dir.file("runs.csv", std::string{header} + std::string{rows});
    expect_one_line_error({"--compare", runs.string()}, needle);
  };
  const std::string_view good = "llama-2-7b,a100_sxm_80gb,1,,fp16,fp16,fp16,1,128,128,22 ms,,,,s,src\n";
  compare("", "runs.csv:1: no runs after the header");
  compare(good, "runs.csv:1: no column source;", "model,machine,tp,link,weights,activations,kv,batch,prompt,generate,ttft,tpot,e2e,output_tokens_per_s,system\n");
  compare(good, "runs.csv:1: unknown column \"speed\"; expected the columns", "speed," + std::string{runs_header});
  compare(good, "runs.csv:1: unknown column \"requets\"; did you mean requests?", "requets," + std::string{runs_header});
  compare("llama-2-7b,a100_sxm_80gb,1,,fp16,fp16,fp16,1,128,128,22,,,,s,src\n", "runs.csv:2: ttft: cannot read \"22\"");
  compare("llama-2-7b,a100_sxm_80gb,1,,fp16,fp16,fp16,1,128,128,22 GB,,,,s,src\n", "runs.csv:2: ttft: ");
  compare("llama-2-7b,a100_sxm_80gb,1,,fp16,fp16,fp16,1,128,128,-2 ms,,,,s,src\n", "runs.csv:2: ttft: ");
  compare("llama-2-7b,a100_sxm_80gb,1,,fp16,fp16,fp16,1,128,128,,,,fast,s,src\n", "runs.csv:2: output_tokens_per_s: \"fast\" is not a number");
  compare("llama-2-7b,a100_sxm_80gb,1,,fp16,fp16,fp16,1,128,128,,,,0,s,src\n", "runs.csv:2: output_tokens_per_s: a measured figure must be finite and > 0");
  compare("llama-2-7b,a100_sxm_80gb,1,,fp16,fp16,fp16,1,128,128,,,,,s,src\n", "runs.csv:2: no measured figure");
  compare("llama-2-7b,a100_sxm_80gb,1,,fp16,fp16,fp16,1,128,1,,9 ms,,,s,src\n", "runs.csv:2: tpot: a time per output token needs generate 2 or more");
  compare("llama-2-7b,a100_sxm_80gb,1,,fp16,fp16,fp16,0,128,128,22 ms,,,,s,src\n", "runs.csv:2: batch: \"0\" is not a whole number from 1");
  compare("llama-2-7b,a100_sxm_80gb,1,,fp16,fp16,fp16,1,128,2000000,22 ms,,,,s,src\n", "runs.csv:2: generate: \"2000000\" is not a whole number from 1 to 1000000");
  compare("llama-2-7b,a100_sxm_80gb,1,,fp16,fp16,fp16,1,128,128,22 ms,,,,,src\n", "runs.csv:2: system: empty");
  compare("llama-2-7b,a100_sxm_80gb,1,,fp16,fp16,fp16,1,128,128,22 ms,,,,s\n", "runs.csv:2: expected 16 fields like the header, found 15");
  compare("llama-2-7b,a100_sxm_80gb,1,,fp16,fp16,fp16,1,128,128,22 ms,,,,s,\x1b[2J\n", "runs.csv:2: source: a control character");
  // What the options of hml llm check, on the run's line, naming the column (not the option it stands for).
  compare(std::string{good} + "llama-9,a100_sxm_80gb,1,,fp16,fp16,fp16,1,128,128,22 ms,,,,s,src\n",
          "runs.csv:3: model: unknown model 'llama-9'");
  compare("llama-2-7b,a100,1,,fp16,fp16,fp16,1,128,128,22 ms,,,,s,src\n", "runs.csv:2: machine: unknown machine 'a100'; did you mean");
  compare("llama-2-7b,a100_sxm_80gb,2,,fp16,fp16,fp16,1,128,128,22 ms,,,,s,src\n", "runs.csv:2: link: tp above 1 needs the link between the devices; give it, e.g. link nvlink4");
  compare("llama-2-7b,a100_sxm_80gb,1,,fp8,fp8,fp8,1,128,128,22 ms,,,,s,src\n", "runs.csv:2: weights, activations: NVIDIA A100 SXM4 80GB publishes no FP8");
  compare("llama-2-7b,a100_sxm_80gb,1,,fp7,fp16,fp16,1,128,128,22 ms,,,,s,src\n", "runs.csv:2: weights: unknown precision 'fp7'");
  // A weight group: a count, and INT8's or INT4's, as --weight-group checks it.
  const std::string grouped = "weight_group," + std::string{runs_header};
  compare("0,llama-2-7b,a100_sxm_80gb,1,,int4,bf16,bf16,1,5,200,,,,196.8,s,src\n",
          "runs.csv:2: weight_group: \"0\" is not a whole number from 2 to 1048576", grouped);
  compare("32,llama-2-7b,a100_sxm_80gb,1,,fp16,fp16,fp16,1,5,200,,,,104.9,s,src\n",
          "runs.csv:2: weight_group: a weight group is INT8's or INT4's", grouped);
  // An all-reduce, as --all-reduce checks it, named by its column.
  const std::string reduced = "all_reduce," + std::string{runs_header};
  const std::string_view tp4 = ",llama-2-7b,a100_sxm_80gb,4,nvlink3,bf16,bf16,bf16,1,5,200,,,,254.02,s,src\n";
  compare("bus" + std::string{tp4}, "runs.csv:2: all_reduce: \"bus\" is not an algorithm; give ring, nvls or one-shot", reduced);
  compare("tree" + std::string{tp4}, "runs.csv:2: all_reduce: NCCL runs no tree inside a node", reduced);
  compare("nvls" + std::string{tp4}, "runs.csv:2: all_reduce, tp: NVLS is measured on 8 devices (tp 8)", reduced);
  compare("one-shot,llama-2-7b,a100_sxm_80gb,1,,bf16,bf16,bf16,1,5,200,,,,104.9,s,src\n",
          "runs.csv:2: all_reduce: how the tensor-parallel devices all-reduce; give tp 2 or more with it", reduced);
  // A machine of - would read standard input, the runs file's own with --compare -.
  compare("llama-2-7b,-,1,,fp16,fp16,fp16,1,128,128,22 ms,,,,s,src\n", "runs.csv:2: machine: - would be standard input");
  // The decode steps a file asks for are bounded: a file of long generations is refused, not run for hours.
  std::string many;
  for (int i = 0; i < 3; ++i) many += "llama-2-7b,a100_sxm_80gb,1,,fp16,fp16,fp16,1,128,600000,22 ms,,,,s" + std::to_string(i) + ",src\n";
  compare(many, "runs.csv:3: the runs so far take more than 1000000 steps in all");
  // So are a continuous batch's, at the fewest its requests take (the twenty-ninth trial: three rows of
  // 100,000 requests, 390,234 steps each, took 27 s in a debug build and passed).
  const std::string requested = "requests," + std::string{runs_header};
  std::string served;
  for (int i = 0; i < 3; ++i) served += "100000,llama-2-7b,h100_sxm,1,,fp16,fp16,fp16,256," + std::to_string(128 + i) + ",1000,,,,10,s,x\n";
  compare(served, "runs.csv:4: the runs so far take more than 1000000 steps in all", requested);
  // The options of one run are the file's; the efficiencies and figures are every run's.
  const fs::path runs = dir.file("good.csv", std::string{runs_header} + std::string{good});
  expect_one_line_error({"--compare", runs.string(), "--model", "llama-2-7b"}, "--model, --compare: not together");
  expect_one_line_error({"--compare", runs.string(), "--batch", "4"}, "--batch, --compare: not together");
  expect_one_line_error({"--compare", (dir.path / "none.csv").string()}, "--compare: cannot read");
  expect_one_line_error({"--model", "llama-2-7b"}, "--machine: missing; give --machine NAME|FILE, or --compare FILE");
  EXPECT_EQ(llm({"--compare", runs.string(), "--figures", "stated", "--efficiency-compute", "0.5"}).status, 0);
}

// A machine file beside the runs file is found there, wherever hml runs; a run that does not fit its
// machine is predicted all the same, with a note; a machine name no file system takes is the run's line.
TEST(LlmCli, CompareFindsMachineFilesBesideTheRunsAndNotesRunsThatDoNotFit) {
  const scratch_directory dir{"runs"};
  fs::create_directories(dir.path / "machines");
  fs::copy_file(fs::path{HML_SOURCE_DIR} / "cli/my_gpu.yaml", dir.path / "machines/my_gpu.yaml");
  const fs::path runs = dir.file("runs.csv", std::string{runs_header} +
                                                 "llama-2-7b,machines/my_gpu.yaml,1,,fp16,fp16,fp16,1,128,128,22 ms,,,,s,src\n"
                                                 "llama-2-70b,a100_sxm_80gb,1,,fp16,fp16,fp16,1,128,128,,,,30,s,src\n");
  const outcome by_file = llm({"--compare", runs.string(), "--format", "json"});  // run from the build folder
  ASSERT_EQ(by_file.status, 0) << by_file.err;
  const auto rows = nlohmann::json::parse(by_file.out)["comparisons"];
  const hml::generation g{1, 128, 128};
  const hml::machine_file file = hml::read_machine_file(read_file(dir.path / "machines/my_gpu.yaml"), "my_gpu.yaml");
  EXPECT_EQ(rows[0]["predicted"].get<double>(),
            hml::serving(hml::analyze_generation(hml::models::llama_2_7b, g,
                                                 hml::with_figures(file.machine(), hml::basis::measured_where_published),
                                                 expected),
                         g).time_to_first_token.value.value());
  EXPECT_NE(by_file.err.find("runs.csv:3: llama-2-70b at batch 1 needs "), std::string::npos) << by_file.err;
  EXPECT_TRUE(by_file.err.ends_with("; predicted as if it fitted\n")) << by_file.err;
  // Many runs that do not fit are one note, not one a run (a trial's 10,000 runs wrote 10,003 lines).
  std::string many{runs_header};
  for (int k = 0; k < 500; ++k) many += "llama-2-70b,a100_sxm_80gb,1,,fp16,fp16,fp16,1,128,128,,,,30,s" + std::to_string(k) + ",src\n";
  const outcome crowded = llm({"--compare", dir.file("many.csv", many).string(), "--format", "csv"});
  ASSERT_EQ(crowded.status, 0) << crowded.err;
  EXPECT_EQ(std::count(crowded.err.begin(), crowded.err.end(), '\n'), 2) << crowded.err;  // and the machine's figures
  EXPECT_NE(crowded.err.find("many.csv:2: llama-2-70b at batch 1 needs "), std::string::npos) << crowded.err;
  EXPECT_NE(crowded.err.find("; predicted as if it fitted (and 499 more runs whose memory does not fit)\n"), std::string::npos)
      << crowded.err;
  // Not found beside the runs file: said so, with the path it tried.
  const fs::path elsewhere = dir.file("elsewhere.csv", std::string{runs_header} +
                                                           "llama-2-7b,my_gpu.yaml,1,,fp16,fp16,fp16,1,128,128,22 ms,,,,s,src\n");
  expect_one_line_error({"--compare", elsewhere.string()}, "elsewhere.csv:2: machine: cannot read '" + (dir.path / "my_gpu.yaml").string());
  const fs::path long_name = dir.file("long.csv", std::string{runs_header} + "llama-2-7b," + std::string(900, 'm') +
                                                      ".yaml,1,,fp16,fp16,fp16,1,128,128,22 ms,,,,s,src\n");
  expect_one_line_error({"--compare", long_name.string()}, "long.csv:2: machine: ");
  // The options every run takes are checked as options, not blamed on a run.
  expect_one_line_error({"--compare", runs.string(), "--efficiency-memory", "0"},
                        "--efficiency-memory: the memory efficiency must be within (0, 1]");
}

// --- hml llm --requests (continuous batching) ---------------------------------------------------------

// The line and the JSON summary are the library's continuous batching of the run's requests.
TEST(LlmCli, RequestsAreServedByContinuousBatching) {
  const outcome r = llm({"--model", "llama-3-8b", "--machine", "h100_sxm", "--prompt", "128", "--generate", "128",
                        "--requests", "3000", "--max-batch", "512", "--format", "json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto summary = nlohmann::json::parse(r.out)["summary"];
  const hml::request_class mix[] = {{3000, 128, 128}};
  const hml::continuous_batching_result c = hml::continuous_batching(
      hml::models::llama_3_8b, mix, {.max_batch = 512},
      hml::with_figures(hml::devices::h100_sxm, hml::basis::measured_where_published), expected);
  EXPECT_EQ(summary["continuous_concurrency"].get<double>(), 512);
  EXPECT_EQ(c.limited_by, hml::concurrency_limit::max_batch);
  EXPECT_EQ(summary["continuous_time_to_first_token_s"].get<double>(), c.mean_time_to_first_token.value.value());
  EXPECT_EQ(summary["continuous_time_per_output_token_s"].get<double>(), c.mean_time_per_output_token.value.value());
  EXPECT_EQ(summary["continuous_end_to_end_latency_s"].get<double>(), c.mean_end_to_end.value.value());
  EXPECT_EQ(summary["continuous_output_tokens_per_s"].get<double>(), c.output_throughput.per_second);
  EXPECT_EQ(summary["continuous_makespan_s"].get<double>(), c.makespan.value.value());
  // Requests beyond the batch wait: the mean time to first token is longer than the static batch's.
  EXPECT_GT(c.mean_time_to_first_token.value.value(), summary["time_to_first_token_s"].get<double>());

  const outcome table = llm({"--model", "llama-3-8b", "--machine", "h100_sxm", "--prompt", "128", "--generate", "128",
                            "--requests", "3000", "--max-batch", "512"});
  ASSERT_EQ(table.status, 0) << table.err;
  EXPECT_NE(table.out.find("continuous batching of 3000 requests (room for 512 at once, set by the scheduler's max batch; max batch "
                           "512, max tokens 8192): on average TTFT "),
            std::string::npos) << table.out;
  EXPECT_NE(table.out.find(" (" + std::to_string(c.prefill_steps) + " prefill and " + std::to_string(c.decode_steps) +
                           " decode steps)\n"),
            std::string::npos) << table.out;

  expect_one_line_error({"--model", "llama-3-8b", "--machine", "h100_sxm", "--max-batch", "8"}, "--max-batch: needs --requests");
  expect_one_line_error({"--model", "llama-3-8b", "--machine", "h100_sxm", "--requests", "8", "--context", "100"},
                        "not together");
  expect_one_line_error({"--model", "llama-3-8b", "--machine", "h100_sxm", "--requests", "0"}, "--requests: '0' is below 1; give a whole number from 1");
  // Each error names the options that caused it, as given: a limit left at its default is said, not blamed.
  expect_one_line_error({"--model", "llama-3-8b", "--machine", "h100_sxm", "--requests", "8", "--prompt", "9000"},
                        "--prompt: a prompt of 9000 tokens is longer than a step's 8192 max tokens (the default); this "
                        "scheduler does not chunk a prompt: give a shorter prompt or --max-tokens 9000 or more");
  expect_one_line_error({"--model", "llama-3-8b", "--machine", "h100_sxm", "--requests", "8", "--prompt", "600",
                         "--max-tokens", "512"},
                        "--prompt, --max-tokens: a prompt of 600 tokens is longer than a step's 512 max tokens; this");
  expect_one_line_error({"--model", "llama-2-70b", "--machine", "h100_sxm", "--requests", "8", "--prompt", "4000"},
                        "--requests: the model does not fit in the memory of NVIDIA H100 SXM5 80GB even for one sequence");
  expect_one_line_error({"--model", "llama-3-8b", "--machine", "h100_sxm", "--requests", "1000000000", "--generate", "1000",
                         "--max-batch", "1"},
                        "--requests, --max-batch: the request mix needs more than 10^6 steps");
  expect_one_line_error({"--model", "llama-3-8b", "--machine", "h100_sxm", "--requests", "1000000000", "--generate", "1000"},
                        "--requests: the request mix needs more than 10^6 steps");
}

}  // namespace

#endif  // HML_CLI
