// `hml tiers` and `hml offload` driven from outside: JSON and CSV read back and compared with the library's
// own results for the same scenario (the examples' scenarios, whose figures tests/compile_time/
// tiers_and_offload.cpp derives by hand), the text tables' key lines, and bad input: status 2, one line on
// stderr, nothing on stdout, no output file.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_harness.hpp"
#include "offload_decision.hpp"
#include "tiered_memory.hpp"

import hml;

#ifdef HML_CLI

namespace {

namespace fs = std::filesystem;

using namespace hml_test;

// The vector add of offload_decision.hpp, as options: 2^28 FLOP, 2 GiB in, 1 GiB out (the link added), on
// the datasheet's figures as the example takes them.
const std::initializer_list<std::string> vector_add_args{
    "offload", "--host-bandwidth", "200GB/s", "--host-peak", "2TFLOP/s", "--device", "h100_pcie", "--figures", "stated",
    "--in", "2GiB", "--out", "1GiB", "--flops", "268435456FLOP"};

// `hml BASE... MORE...`: a scenario's options with what a test adds.
outcome with(std::initializer_list<std::string> base, std::initializer_list<std::string> more) {
  std::vector<std::string> all{base};
  all.insert(all.end(), more);
  return hml_run(all);
}

TEST(HeteroCli, OffloadJsonIsTheLibrarysPlan) {
  const outcome o = with(vector_add_args, {"--link", "pcie5x16", "--format", "json"});
  ASSERT_EQ(o.status, 0) << o.err;
  const nlohmann::json rows = nlohmann::json::parse(o.out);
  ASSERT_EQ(rows.size(), 1u);
  const nlohmann::json& r = rows[0];
  const hml::offload_plan& plan = offload_decision::plan;
  EXPECT_EQ(r["host_s"].get<double>(), plan.host.value());
  EXPECT_EQ(r["copy_in_s"].get<double>(), plan.copy_in.value());
  EXPECT_EQ(r["device_s"].get<double>(), plan.device.value());
  EXPECT_EQ(r["serial_s"].get<double>(), plan.serial.value());
  EXPECT_EQ(r["pipelined_s"].get<double>(), plan.pipelined.value());
  EXPECT_EQ(r["zero_copy_s"].get<double>(), plan.zero_copy.value());
  EXPECT_EQ(r["best"], "zero-copy");
  EXPECT_EQ(r["offload"], false);  // a JSON boolean
  EXPECT_EQ(r["break_even_runs"].get<double>(), plan.break_even_runs);
  EXPECT_EQ(r["break_even_flop_per_byte"].get<double>(), offload_decision::break_even.value());
  // Hand-derived (tests/compile_time/tiers_and_offload.cpp): serial 52.729 ms, 3.526 runs.
  EXPECT_NEAR(r["serial_s"].get<double>(), 0.052728692736, 1e-12);
  EXPECT_NEAR(r["break_even_runs"].get<double>(), 3.526475694444444, 1e-12);
}

TEST(HeteroCli, OffloadTableShowsTheTimelineAndVerdict) {
  const outcome o = with(vector_add_args, {"--link", "pcie5x16"});
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_NE(o.out.find("serial              52.7 ms\n"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("verdict: run on the host (fastest offload: zero-copy, speed-up 0.473x)"), std::string::npos);
  EXPECT_NE(o.out.find("pays from 3.53 runs on the transferred data, or from 33.03 FLOP/B"), std::string::npos);
}

TEST(HeteroCli, OffloadOverARateOrASystem) {
  // NVLink 4's 450 GB/s given as a rate is the catalog's nvlink4 but for its latency, 1.93 us a transfer (a
  // ring step of nccl-tests' all-reduce), which the copy in and the copy out each pay once.
  const outcome by_rate = with(vector_add_args, {"--link", "450GB/s", "--format", "json"});
  const outcome by_id = with(vector_add_args, {"--link", "nvlink4", "--format", "json"});
  ASSERT_EQ(by_rate.status, 0) << by_rate.err;
  ASSERT_EQ(by_id.status, 0) << by_id.err;
  const nlohmann::json rate = nlohmann::json::parse(by_rate.out)[0];
  const nlohmann::json id = nlohmann::json::parse(by_id.out)[0];
  EXPECT_NEAR(id["copy_in_s"].get<double>() - rate["copy_in_s"].get<double>(), 1.93e-6, 1e-15);
  EXPECT_NEAR(id["copy_out_s"].get<double>() - rate["copy_out_s"].get<double>(), 1.93e-6, 1e-15);
  EXPECT_EQ(id["best"], "zero-copy") << by_id.out;
  const outcome gh200 = hml_run({"offload", "--system", "gh200", "--in", "40GB", "--out", "20GB", "--format", "json"});
  ASSERT_EQ(gh200.status, 0) << gh200.err;
  // C2C measured (Schieffer et al.): 375 GB/s to the device, 297 GB/s back; the slower, 40 GB in: 134.7 ms.
  EXPECT_NEAR(nlohmann::json::parse(gh200.out)[0]["copy_in_s"].get<double>(), 40.0 / 297.0, 1e-12);
  EXPECT_NE(gh200.err.find("hml: note: c2c: the slower measured direction in place of the datasheet's rate: 297 GB/s"),
            std::string::npos)
      << gh200.err;
  // The datasheet's: 450 GB/s per direction, 40 GB in: 88.9 ms.
  const outcome stated =
      hml_run({"offload", "--system", "gh200", "--figures", "stated", "--in", "40GB", "--out", "20GB", "--format", "json"});
  ASSERT_EQ(stated.status, 0) << stated.err;
  EXPECT_NEAR(nlohmann::json::parse(stated.out)[0]["copy_in_s"].get<double>(), 40.0 / 450.0, 1e-12);
}

TEST(HeteroCli, OffloadTransfersAreBoundedByTheMemoriesAtTheLinksEnds) {
  // GH200's datasheet figures: C2C 450 GB/s each way, LPDDR5X 500 GB/s for both. 40 GB in and 40 GB out in
  // place are read from and written to LPDDR5X: 80 GB / 500 GB/s = 160 ms, not the link's 88.9 ms (known-limits
  // said so until the transfers took the memories); one way, a copy is the link's 40 GB / 450 GB/s.
  const outcome o = hml_run({"offload", "--system", "gh200", "--figures", "stated", "--in", "40GB", "--out", "40GB",
                             "--flops", "0FLOP", "--format", "json"});
  ASSERT_EQ(o.status, 0) << o.err;
  const nlohmann::json r = nlohmann::json::parse(o.out)[0];
  EXPECT_NEAR(r["zero_copy_s"].get<double>(), 80.0 / 500.0, 1e-12);
  EXPECT_NEAR(r["copy_in_s"].get<double>(), 40.0 / 450.0, 1e-12);
  EXPECT_GE(r["pipelined_s"].get<double>(), 80.0 / 500.0);
  const outcome text = hml_run({"offload", "--system", "gh200", "--figures", "stated", "--in", "40GB", "--out", "40GB"});
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("transfers: bounded by the host's memory too, 500 GB/s for both directions together\n"),
            std::string::npos)
      << text.out;
  // A host of 40 GB/s behind PCIe 5.0 (63 GB/s): every copy moves at the host's memory's rate.
  const outcome slow_host = hml_run({"offload", "--host-bandwidth", "40GB/s", "--host-peak", "2TFLOP/s", "--device",
                                     "h100_pcie", "--link", "pcie5x16", "--in", "4GB", "--out", "4GB", "--format", "json"});
  ASSERT_EQ(slow_host.status, 0) << slow_host.err;
  EXPECT_NEAR(nlohmann::json::parse(slow_host.out)[0]["copy_in_s"].get<double>(), 4.0 / 40.0, 1e-12);
  // Where the link is the slower, nothing is said: PCIe 5.0 both ways (126 GB/s) below a 200 GB/s host.
  const outcome fast_host = with(vector_add_args, {"--link", "pcie5x16"});
  EXPECT_EQ(fast_host.out.find("transfers:"), std::string::npos) << fast_host.out;
}

TEST(HeteroCli, OffloadOversubscribedOnAGivenDevice) {
  // 180 GB on an 80 GB device (2 TB/s, 51 TFLOP/s) over PCIe 5.0 x16: 80/180 resident; the copies move that
  // share, and the kernel streams the other 100/180 over the link while it runs, its reads (120 GB) one way
  // and its writes (60 GB) the other: at 63.015 GB/s a direction, 180/120 x that in all
  // (tests/compile_time/tiers_and_offload.cpp derives the same on the catalog's H100 PCIe).
  const outcome o = hml_run({"offload", "--host-bandwidth", "200GB/s", "--host-peak", "2TFLOP/s",
                                   "--device-bandwidth", "2TB/s", "--device-peak", "51TFLOP/s", "--device-capacity",
                                   "80GB", "--link", "pcie5x16", "--in", "120GB", "--out", "60GB", "--flops",
                                   "180GFLOP", "--format", "json"});
  ASSERT_EQ(o.status, 0) << o.err;
  const nlohmann::json r = nlohmann::json::parse(o.out)[0];
  const double link = 16 * 32e9 / 8 * 128.0 / 130.0;
  EXPECT_NEAR(r["resident_share"].get<double>(), 80.0 / 180.0, 1e-15);
  EXPECT_NEAR(r["copy_in_s"].get<double>(), 120e9 * (80.0 / 180.0) / link, 1e-12);
  EXPECT_NEAR(r["device_s"].get<double>(), 180e9 * (100.0 / 180.0) / (link * 180.0 / 120.0), 1e-12);
  // The copies and the kernel's streaming share the link: pipelined is no faster than the 120 GB going in.
  EXPECT_GT(r["pipelined_s"].get<double>(), 120e9 / link);
  EXPECT_EQ(r["best"], "zero-copy");
  expect_input_error(hml_run({"offload", "--host-bandwidth", "200GB/s", "--host-peak", "2TFLOP/s",
                                "--device-bandwidth", "2TB/s", "--device-peak", "51TFLOP/s", "--device-capacity",
                                "0GB", "--link", "pcie5x16", "--in", "1GB", "--out", "1GB"}),
                        "--device-capacity: a memory's capacity must be finite and > 0");
}

TEST(HeteroCli, TiersJsonIsTheLibrarysPlacements) {
  const outcome o = hml_run({"tiers", "--system", "xeon_max", "--footprint", "200GiB", "--hot-bytes", "0.3",
                                   "--hot-accesses", "0.9", "--format", "json"});
  ASSERT_EQ(o.status, 0) << o.err;
  const nlohmann::json rows = nlohmann::json::parse(o.out);
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0]["policy"], "cache");
  EXPECT_EQ(rows[0]["bandwidth_Bps"].get<double>(), tiered_memory::cache.bandwidth.value());
  EXPECT_EQ(rows[1]["policy"], "flat");
  EXPECT_EQ(rows[1]["bandwidth_Bps"].get<double>(), tiered_memory::flat.bandwidth.value());
  EXPECT_EQ(rows[2]["policy"], "weighted interleave");
  EXPECT_EQ(rows[2]["fits"], false);  // a JSON boolean (the forty-ninth trial: it was the string "no")
  EXPECT_EQ(rows[0]["fits"], true);
  // CSV says it in the same words; a table for people says yes or no.
  const outcome csv = hml_run({"tiers", "--system", "xeon_max", "--footprint", "200GiB", "--hot-bytes", "0.3",
                               "--hot-accesses", "0.9", "--format", "csv"});
  EXPECT_NE(csv.out.find("\r\nweighted interleave,false,,"), std::string::npos) << csv.out;
  EXPECT_NE(csv.out.find("\r\ncache,true,"), std::string::npos) << csv.out;
  EXPECT_EQ(rows[3]["policy"], "best placement");
  EXPECT_EQ(rows[3]["bandwidth_Bps"].get<double>(), tiered_memory::best.bandwidth.value());
  // Hand-derived: cache 1,079.25 GB/s, flat 307.2/0.68, best 1,945.6 GB/s.
  EXPECT_NEAR(rows[0]["bandwidth_Bps"].get<double>(), 1079.2471769134256e9, 1e-3);
  EXPECT_NEAR(rows[3]["bandwidth_Bps"].get<double>(), 1945.6e9, 1e-3);
}

TEST(HeteroCli, TiersGivenAsSpecsMatchTheCatalogsTiers) {
  const outcome given = hml_run({"tiers", "--tier", "HBM2e:64GiB:1638.4GB/s", "--tier", "DDR5-4800:512GiB:307.2GB/s",
                                       "--footprint", "200GiB", "--hot-bytes", "0.3", "--hot-accesses", "0.9",
                                       "--format", "csv"});
  const outcome catalog = hml_run({"tiers", "--system", "xeon_max", "--footprint", "200GiB", "--hot-bytes", "0.3",
                                         "--hot-accesses", "0.9", "--format", "csv"});
  ASSERT_EQ(given.status, 0) << given.err;
  EXPECT_EQ(given.out, catalog.out);
  const outcome table = hml_run({"tiers", "--system", "xeon_max", "--footprint", "200GiB", "--hot-bytes", "0.3",
                                       "--hot-accesses", "0.9"});
  EXPECT_NE(table.out.find("weighted interleave  does not fit"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("best placement       1.95 TB/s"), std::string::npos) << table.out;
}

TEST(HeteroCli, DevicesListsLinksAndSystems) {
  const outcome o = hml_run({"devices"});
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_NE(o.out.find("pcie5x16  PCIe 5.0 x16               63.02 GB/s"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("c2c       NVLink-C2C (GH200)         450 GB/s       stated   375 GB/s, 297 GB/s"), std::string::npos);
  EXPECT_NE(o.out.find("xeon_max "), std::string::npos);
}

TEST(HeteroCli, BadInputIsOneLine) {
  expect_input_error(with(vector_add_args, {"--link", "pcie9x16"}), "--link: unknown link 'pcie9x16'");
  expect_input_error(with(vector_add_args, {"--link", "0GB/s"}), "--link: link bandwidth must be finite and > 0");
  expect_input_error(with(vector_add_args, {"--link", "pcie5x16", "--chunks", "0"}), "--chunks: '0' is below 1; give a whole number from 1 to 1000000");
  expect_input_error(with({"offload", "--system", "gh200", "--out", "1GB"}, {"--in", "2GB/s"}), "--in: ");
  expect_input_error(hml_run({"offload", "--system", "mi300a", "--in", "1GB", "--out", "1GB"}), "one memory pool");
  expect_input_error(hml_run({"offload", "--system", "nope", "--in", "1GB", "--out", "1GB"}), "--system: unknown system");
  // The default precision, fp32, on a CPU whose file has only FP64: the machine and what both machines have
  // are named.
  expect_input_error(hml_run({"offload", "--host", "snb_e5_2680", "--device", "h100_sxm", "--link", "pcie5x16", "--in", "1GB",
                              "--out", "1GB", "--flops", "1TFLOP"}),
                     "--precision (fp32, the default): Intel Xeon E5-2680 (Sandy Bridge EP) publishes no FP32 (vector or tensor) "
                     "peak; give --precision fp64 (a peak on both)");
  // The sixteenth trial: the catalog's own system failed at the default and offered fp64_vector, which
  // offload refuses (it takes a precision alone); it offers fp64, which runs.
  expect_input_error(hml_run({"offload", "--system", "h100_pcie_host", "--in", "1GB", "--out", "1GB"}),
                     "Intel Xeon Platinum 8480+ (one socket) publishes no FP32 (vector or tensor) peak; give --precision fp64");
  EXPECT_EQ(hml_run({"offload", "--system", "h100_pcie_host", "--in", "1GB", "--out", "1GB", "--precision", "fp64"}).status, 0);
  expect_input_error(hml_run({"tiers", "--tier", "HBM:64GiB", "--tier", "D:1TiB:1GB/s", "--footprint", "1GiB"}),
                        "--tier: a tier is NAME:CAPACITY:BANDWIDTH");
  expect_input_error(hml_run({"tiers", "--tier", "HBM:64GB/s:1GB/s", "--tier", "D:1TiB:1GB/s", "--footprint", "1GiB"}),
                        "--tier: ");
  // A tier's bandwidth is a memory's: bits are refused, with the byte rate they may stand for.
  expect_input_error(hml_run({"tiers", "--tier", "HBM:64GiB:16384Gbit/s", "--tier", "D:1TiB:1GB/s", "--footprint", "1GiB"}),
                        "--tier: BANDWIDTH: cannot read \"16384Gbit/s\" as a data rate: \"Gbit/s\" at position 5 is bits per "
                        "second (2.048 TB/s); a memory's bandwidth is in bytes per second (B/s, not b/s or bit/s): did you mean "
                        "\"2048 GB/s\"?");
  expect_input_error(hml_run({"tiers", "--tier", "HBM:64GiB:2TB/s:8Tbps", "--tier", "D:1TiB:1GB/s", "--footprint", "1GiB"}),
                        "--tier: WRITE: cannot read \"8Tbps\" as a data rate: \"Tbps\" at position 1 is bits per second (1 TB/s)");
  // A case slip there is offered the byte rate alone (the fifty-fifth trial: "1gb/s" was "a bit rate", unread).
  expect_input_error(hml_run({"tiers", "--tier", "HBM:64GiB:1gb/s", "--tier", "D:1TiB:1GB/s", "--footprint", "1GiB"}),
                     "--tier: BANDWIDTH: cannot read \"1gb/s\" as a data rate: \"gb/s\" at position 1 is not a known unit; "
                     "units are case-sensitive: b is bit, B is byte; did you mean \"GB/s\"?");
  expect_input_error(hml_run({"tiers", "--system", "xeon_max", "--footprint", "200GiB", "--hot-bytes", "1.5"}),
                        "--hot-bytes: a share must be within [0, 1]");
  // Hot bytes that take fewer than their share of the accesses are the cold ones: the model serves the hot
  // part first, so it is refused, saying which part to give.
  expect_input_error(hml_run({"tiers", "--system", "xeon_max", "--footprint", "200GiB", "--hot-bytes", "0.3",
                              "--hot-accesses", "0.1"}),
                     "--hot-bytes, --hot-accesses: the hot bytes take at least their share of the accesses");
  expect_input_error(hml_run({"tiers", "--system", "xeon_max", "--footprint", "2TiB"}), "--footprint: the working set does not fit the tiers");
  expect_input_error(hml_run({"tiers", "--system", "xeon_max", "--footprint", "1GiB", "--shares", "0.5,0.6"}),
                        "--shares: flat mode's shares must add up to 1");
  // -o FILE: no file on failure.
  const scratch_directory dir;
  const fs::path file = dir.path / "plan.csv";
  expect_input_error(with(vector_add_args, {"--link", "pcie9x16", "-o", file.string()}), "--link");
  EXPECT_FALSE(fs::exists(file));
}

TEST(HeteroCli, HelpHasAnExample) {
  for (const std::string command : {"tiers", "offload"}) {
    const outcome o = hml_run({command, "--help"});
    EXPECT_EQ(o.status, 0);
    EXPECT_NE(o.out.find("Example: hml " + command), std::string::npos) << o.out;
  }
}

}  // namespace

#endif  // HML_CLI
