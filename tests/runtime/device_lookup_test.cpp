// hml::find_machine / machine_named / closest_machine_ids (the one catalog and its did-you-mean), the spelling
// suggestions every reader shares, precisions by name, and the catalog table.
#include <gtest/gtest.h>

#include <array>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

import hml;

namespace {

using ids = std::vector<std::string_view>;
using hml::compute_unit;
using hml::precision;

TEST(DeviceLookup, IdsAndNamesInAnyCaseAndSeparator) {
  for (const hml::machine_description* d : hml::machines::all) {
    EXPECT_EQ(hml::find_machine(d->id), d) << d->id;
    EXPECT_EQ(hml::find_machine(d->name), d) << d->name;
    EXPECT_EQ(hml::id_of(*d), d->id);
  }
  EXPECT_EQ(hml::find_machine("H100-SXM"), &hml::devices::h100_sxm);
  EXPECT_EQ(hml::find_machine("h100 pcie"), &hml::devices::h100_pcie);
  EXPECT_EQ(hml::find_machine("RTX4090"), &hml::devices::rtx_4090);
  EXPECT_EQ(hml::find_machine("nvidia h100 sxm5 80gb"), &hml::devices::h100_sxm);
  EXPECT_EQ(hml::find_machine("h100"), nullptr);  // two devices: not a name of either
  EXPECT_EQ(hml::find_machine(""), nullptr);
  EXPECT_EQ(hml::find_machine("__"), nullptr);
}

TEST(DeviceLookup, SuggestionsPreferPrefixesThenCloseSpellings) {
  EXPECT_EQ(hml::closest_machine_ids("h10"), (ids{"h100_sxm", "h100_pcie"}));
  EXPECT_EQ(hml::closest_machine_ids("a100"), (ids{"a100_sxm_80gb", "a100_sxm_40gb"}));
  EXPECT_EQ(hml::closest_machine_ids("4090"), (ids{"rtx_4090"}));              // contained in the id
  EXPECT_EQ(hml::closest_machine_ids("instinct"), (ids{"mi300x", "mi250x", "mi300a"}));  // in the names
  EXPECT_EQ(hml::closest_machine_ids("mi3000x"), (ids{"mi300x"}));             // one edit away
  EXPECT_EQ(hml::closest_machine_ids("h300"), (ids{"h200"}));                  // b200 is two edits away
  EXPECT_EQ(hml::closest_machine_ids("rtx-4080"), (ids{"rtx_4090"}));
  EXPECT_TRUE(hml::closest_machine_ids("quantum annealer").empty());
  EXPECT_EQ(hml::closest_machine_ids("h", 1).size(), 1u);
}

// One distance and one tolerance for every misspelt name: a quarter of its length, at least one edit.
TEST(Spelling, CloseNamesAreOfferedAndFarOnesNot) {
  const std::array<std::string_view, 4> fields{"bandwidth", "measured_bandwidth", "write_bandwidth", "capacity"};
  EXPECT_EQ(hml::closest_spellings("bandwith", fields), (ids{"bandwidth"}));  // a letter left out
  EXPECT_EQ(hml::closest_spellings("capacitiy", fields), (ids{"capacity"}));
  EXPECT_EQ(hml::closest_spellings("capaicty", fields), (ids{"capacity"}));  // two letters swapped: one edit
  EXPECT_TRUE(hml::closest_spellings("bandwidth", fields).empty());  // a known name is no slip of another
  EXPECT_TRUE(hml::closest_spellings("colour", fields).empty());
  const std::array<std::string_view, 3> options{"--peak", "--peaks", "--output"};
  EXPECT_EQ(hml::did_you_mean("--peek", options), "did you mean --peak?");
  EXPECT_EQ(hml::did_you_mean("--peakss", options), "did you mean --peaks or --peak?");  // closest first
  EXPECT_EQ(hml::did_you_mean("--ouptut", options), "did you mean --output?");
  EXPECT_EQ(hml::did_you_mean("--xyz", options), "");
  EXPECT_TRUE(hml::closest_spellings("-p", options).empty());  // one edit from a short word is every one
  EXPECT_EQ(hml::spelling_hint("colour", fields), "expected one of bandwidth, measured_bandwidth, write_bandwidth, capacity");
  EXPECT_EQ(hml::typo_tolerance(3), 1u);
  EXPECT_EQ(hml::typo_tolerance(12), 3u);
  EXPECT_TRUE(hml::closest_spellings(std::string(1 << 20, 'b'), fields).empty());  // too long to be close
  // Letters in another case are one slip, however many (the seventieth trial: TTFT, FLOPs and CORES were
  // offered nothing, their capitals counted as edits each).
  const std::array<std::string_view, 4> columns{"ttft", "tpot", "flops", "cores"};
  EXPECT_EQ(hml::closest_spellings("TTFT", columns), (ids{"ttft"}));
  EXPECT_EQ(hml::closest_spellings("FLOPs", columns), (ids{"flops"}));
  EXPECT_EQ(hml::closest_spellings("CORES", columns), (ids{"cores"}));
  EXPECT_EQ(hml::closest_spellings("Tpott", columns), (ids{"tpot"}));  // beside another slip, the case adds none
  EXPECT_EQ(hml::typo_distance("ttft", "ttft"), 0u);
  EXPECT_EQ(hml::typo_distance("TTFT", "ttft"), 1u);
  // At one distance a name in other capitals alone comes first; a short word is offered its name in other
  // capitals alone (the seventy-first trial: --TP got nothing).
  const std::array<std::string_view, 4> names{"core", "cores", "tp", "ep"};
  EXPECT_EQ(hml::closest_spellings("Cores", names), (ids{"cores", "core"}));
  EXPECT_EQ(hml::closest_spellings("TP", names), (ids{"tp"}));
  EXPECT_TRUE(hml::closest_spellings("tq", names).empty());
  // A name that differs in invisible characters alone is that name to the eye, and so offered it (the
  // seventy-third trial: "cores" with a zero-width space was offered every field, "h100_sxm" with one none).
  EXPECT_EQ(hml::closest_spellings("cores\u200b", names), (ids{"cores", "core"}));
  EXPECT_EQ(hml::closest_spellings("\u00a0tp", names), (ids{"tp"}));
  EXPECT_EQ(hml::typo_distance("co\u2060res", "cores"), 1u);
  EXPECT_EQ(hml::without_invisible("a\u200bb\ufeffc\u00a0"), "abc");
  EXPECT_EQ(hml::closest_machine_ids("h100\u200b_sxm"), (ids{"h100_sxm"}));
}

// Names that look alike are one key, whatever their bytes: printed alike, compatible (full width) or drawn
// alike in another script; names that look different are not.
TEST(Spelling, NamesThatLookAlikeShareOneKey) {
  EXPECT_EQ(hml::look_alike("HBM"), hml::look_alike("HB\u041c"));              // a Cyrillic capital em
  EXPECT_EQ(hml::look_alike("HBM"), hml::look_alike("\uff28BM"));              // a full-width H
  EXPECT_EQ(hml::look_alike("L1"), hml::look_alike("\u216c1"));                // a Roman numeral fifty
  EXPECT_EQ(hml::look_alike("L 1"), hml::look_alike("L\u00a0\u200b1"));       // printed alike
  EXPECT_NE(hml::look_alike("HBM"), hml::look_alike("hbm"));  // a case apart is another name where case counts
  EXPECT_NE(hml::look_alike("L1"), hml::look_alike("L2"));
  EXPECT_EQ(hml::look_alike("\xff\xfe"), "\xff\xfe");  // not UTF-8: as printed, not turned into another text
  EXPECT_TRUE(hml::alike("T\u0435nsorRT-LLM 0.9.0", "tensorrt-llm  0.9.0"));  // a Cyrillic ie
  EXPECT_TRUE(hml::alike("MI300X", "\u041cI300x"));
  EXPECT_FALSE(hml::alike("vLLM 0.5.1", "vLLM 0.5.2"));
  // Letters in either case beyond ASCII: Greek and Cyrillic capitals and their small letters, and a full fold.
  EXPECT_TRUE(hml::alike("ΣGLANG", "σglang"));  // Greek sigma
  EXPECT_TRUE(hml::alike("ДДР", "ддр"));  // Cyrillic de, er
  EXPECT_TRUE(hml::alike("ЯЯ", "яя"));  // Cyrillic ya
  EXPECT_TRUE(hml::alike("ΔΩ", "δω"));  // Greek delta, omega
  EXPECT_TRUE(hml::alike("Straße", "STRASSE"));
  EXPECT_TRUE(hml::alike("HBМ", "hbm"));  // a Cyrillic capital drawn as a Latin one
  EXPECT_FALSE(hml::alike("ΔΔ", "ΔΛ"));  // delta, lambda
  // A capital drawn as a Latin letter, beside the Latin letter or beside its own small letter.
  EXPECT_TRUE(hml::alike("INTEL", "\u0399NTEL"));                               // a Greek capital iota
  EXPECT_TRUE(hml::alike("PCIe 5.0 x16", "\u0420\u0421\u0406e 5.0 \u044516"));  // Cyrillic er, es, i, ha
  EXPECT_TRUE(hml::alike("\u0391\u0398\u0397\u039d\u0391", "\u03b1\u03b8\u03b7\u03bd\u03b1"));  // ΑΘΗΝΑ, αθηνα
  EXPECT_TRUE(hml::alike("HB\u041c", "hb\u043c"));                              // Cyrillic em in either case
  // A capital drawn as a small letter, small capitals, a dot drawn twice, a mark drawn as nothing.
  EXPECT_TRUE(hml::alike("INTEL", "lNTEL"));
  EXPECT_TRUE(hml::alike("HBM", "\u029c\u0299\u1d0d"));          // small capitals H, B, M
  EXPECT_TRUE(hml::alike("INTEL", "\u026a\u0274\u1d1b\u1d07\u029f"));  // small capitals, an I the skeleton draws as "i"
  EXPECT_TRUE(hml::alike("intel", "i\u0307ntel"));                // a combining dot above on the i
  EXPECT_TRUE(hml::alike("DDR", "D\ufff9DR"));                    // an interlinear annotation anchor
  EXPECT_FALSE(hml::alike("NUMA", "VUMA"));
  EXPECT_NE(hml::look_alike("INTEL"), hml::look_alike("\u0130NTEL"));  // a capital I with its dot, where case counts
  // The catalog's own names stay apart, so no catalog entry is taken for another.
  const auto apart = []<class Entry>(std::span<const Entry* const> list) {
    for (std::size_t i = 0; i < list.size(); ++i)
      for (std::size_t j = 0; j < i; ++j) {
        EXPECT_FALSE(hml::alike(list[i]->name, list[j]->name)) << list[i]->name;
        if constexpr (requires { list[i]->id; }) EXPECT_FALSE(hml::alike(list[i]->id, list[j]->id)) << list[i]->id;
      }
  };
  apart(std::span<const hml::machine_description* const>{hml::machines::all});
  apart(std::span<const hml::link_description* const>{hml::systems::links});
  apart(std::span<const hml::system_description* const>{hml::systems::all});
  apart(std::span<const hml::transformer* const>{hml::models::all});
  EXPECT_EQ(hml::first_difference("HBM", "HB\u041c"), "character 3 is U+004D in one, U+041C in the other");
  EXPECT_EQ(hml::first_difference("HBM", "HBM "), "character 4 is the end in one, U+0020 in the other");
  EXPECT_EQ(hml::first_difference("a\U0001F600", "a\xff"), "character 2 is U+1F600 in one, byte 0xFF in the other");
  EXPECT_EQ(hml::first_difference("same", "same"), "");
}

TEST(DeviceLookup, UnknownDeviceErrorSaysWhatToType) {
  try {
    (void)hml::machine_named("h10");
    FAIL() << "h10 was found";
  } catch (const hml::unknown_name_error& e) {
    EXPECT_EQ(std::string{e.what()}, "unknown machine 'h10'; did you mean h100_sxm, h100_pcie?");
    EXPECT_EQ(e.suggestions(), (ids{"h100_sxm", "h100_pcie"}));
  }
  try {
    (void)hml::machine_named("zzz");
    FAIL() << "zzz was found";
  } catch (const hml::unknown_name_error& e) {
    const std::string message = e.what();
    EXPECT_TRUE(message.starts_with("unknown machine 'zzz'; known machines: h100_sxm, h100_pcie,")) << message;
    for (const hml::machine_description* d : hml::machines::all) EXPECT_NE(message.find(d->id), std::string::npos);
  }
}

// A name of the catalog's given as another kind is said to be what it is (the seventieth trial: a model given
// to --machine, a machine to --system or --link, got the list of the option's names alone).
TEST(DeviceLookup, ANameOfAnotherKindIsSaidToBeIt) {
  const auto message_of = [](auto lookup) {
    try {
      (void)lookup();
    } catch (const std::invalid_argument& e) {
      return std::string{e.what()};
    }
    return std::string{"found"};
  };
  EXPECT_TRUE(message_of([] { return hml::machine_named("llama-2-7b"); }).starts_with("'llama-2-7b' is a model, not a machine; known machines: h100_sxm,"));
  EXPECT_TRUE(message_of([] { return hml::system_named("H100 SXM"); }).starts_with("'H100 SXM' is a machine, not a system; known systems: gh200,"));
  EXPECT_TRUE(message_of([] { return hml::model_named("nvlink4"); }).starts_with("'nvlink4' is a link, not a model; known models: "));
  EXPECT_TRUE(message_of([] { return hml::link_named("gh200"); }).starts_with("'gh200' is a system, not a link; expected one of pcie3x16,"));
  EXPECT_TRUE(message_of([] { return hml::machine_named("h10"); }).starts_with("unknown machine 'h10'; did you mean"));  // a slip stays one
}

TEST(DeviceLookup, OneCatalogHoldsTheCpusAndTheMachinesOfSystems) {
  EXPECT_EQ(hml::find_machine("grace"), &hml::systems::grace);
  EXPECT_EQ(hml::find_machine("Xeon-Max-9480"), &hml::systems::xeon_max_9480);
  EXPECT_EQ(hml::find_machine("snb_e5_2680"), &hml::cpus::sandy_bridge_ep_e5_2680);
  EXPECT_EQ(hml::machines::all.size(), hml::devices::all.size() + hml::cpus::all.size() + 4);
  for (std::size_t i = 0; i < hml::machines::all.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) EXPECT_NE(hml::machines::all[i]->id, hml::machines::all[j]->id) << i << " " << j;
  }
}

TEST(DeviceLookup, LinksAndSystemsGetTheSameDidYouMean) {
  EXPECT_EQ(&hml::link_description_named("NVLink4"), &hml::systems::nvlink4);
  EXPECT_EQ(&hml::system_named("GH200"), &hml::systems::gh200);
  try {
    (void)hml::link_description_named("pcie5x61");
    FAIL() << "pcie5x61 was found";
  } catch (const hml::unknown_name_error& e) {
    EXPECT_EQ(std::string{e.what()}, "unknown link 'pcie5x61'; did you mean pcie5x16, pcie3x16, pcie4x16?");
  }
  try {
    (void)hml::system_named("gh20");
    FAIL() << "gh20 was found";
  } catch (const hml::unknown_name_error& e) {
    EXPECT_EQ(std::string{e.what()}, "unknown system 'gh20'; did you mean gh200?");
  }
}

TEST(DeviceLookup, PrecisionsWithAndWithoutTheirUnit) {
  for (precision p : hml::all_precisions) {
    const hml::precision_choice alone = hml::precision_named(hml::id_of(p));
    EXPECT_EQ(alone.type, p);
    EXPECT_FALSE(alone.unit_given);
    EXPECT_FALSE(hml::precision_named(hml::to_string(p)).unit_given);  // "FP64" is the precision alone
    for (compute_unit u : {compute_unit::vector, compute_unit::tensor}) {
      std::vector<std::string> names{hml::id_of(hml::compute_kind{p, u})};
      if (u == compute_unit::tensor) names.emplace_back(hml::to_string(hml::compute_kind{p, u}));  // "FP16 tensor"
      for (const std::string& name : names) {
        const hml::precision_choice with_unit = hml::precision_named(name);
        EXPECT_EQ(with_unit.type, p) << name;
        EXPECT_TRUE(with_unit.unit_given) << name;
        EXPECT_EQ(with_unit.unit, u) << name;
      }
    }
  }
  EXPECT_EQ(hml::id_of(hml::compute_kind{precision::fp16, compute_unit::tensor}), "fp16_tensor");
  EXPECT_THROW((void)hml::precision_named("fp7"), std::invalid_argument);
  EXPECT_THROW((void)hml::precision_named("fp16_matrix"), std::invalid_argument);
}

TEST(DeviceLookup, RoofsNamePrecisionAndUnit) {
  const hml::device& h100 = hml::devices::h100_sxm;
  // FP64 alone is the vector units (34 TFLOP/s); FP64 tensor is asked for by name.
  EXPECT_EQ(hml::roof_named(h100, precision::fp64).peak, hml::peak(h100, {precision::fp64, compute_unit::vector}).value);
  EXPECT_EQ(hml::roof_named(h100, hml::precision_named("fp64_tensor")).peak,
            hml::peak(h100, {precision::fp64, compute_unit::tensor}).value);
  EXPECT_EQ(hml::roof_named(h100, precision::fp64).bandwidth, hml::main_memory(h100).bandwidth.value);
  // FP16 alone is the tensor cores, where the H100 publishes no vector FP16 peak.
  EXPECT_EQ(hml::roof_named(h100, precision::fp16).peak, hml::peak(h100, {precision::fp16, compute_unit::tensor}).value);
  const auto refused = [](const hml::device& d, hml::precision_choice p, hml::basis b = hml::basis::datasheet) {
    try {
      (void)hml::roof_named(d, p, b);
    } catch (const std::invalid_argument& e) {
      return std::string{e.what()};
    }
    return std::string{"accepted"};
  };
  // Each refusal lists the precisions the device does have (a precision given alone was looked for in both units): the V100's datasheet gives FP64 and FP32 on its
  // vector units and FP16 on its tensor cores (NVIDIA V100 datasheet; no TF32, no FP8); the H100's measured peaks are
  // its matmul rates (MAMF) and this project's (benchmarks/gpu), the A100's its matmul rates alone, the L40S has none.
  // Asked by precision alone, the precisions alone (a command that takes no unit refused the suffixes it was
  // offered); asked by its unit, the kinds.
  EXPECT_EQ(refused(hml::devices::v100, precision::tf32),
            std::string{hml::devices::v100.name} + " publishes no TF32 (vector or tensor) peak; it has fp64, fp32, fp16");
  EXPECT_EQ(refused(hml::devices::v100, hml::compute_kind{precision::fp16, compute_unit::vector}),
            std::string{hml::devices::v100.name} + " publishes no FP16 vector peak; it has fp64_vector, fp32_vector, fp16_tensor");
  EXPECT_EQ(refused(hml::devices::a100_sxm_80gb, precision::fp32, hml::basis::measured),
            std::string{hml::devices::a100_sxm_80gb.name} + " publishes no measured FP32 (vector or tensor) peak; it has bf16, fp16");
  EXPECT_EQ(refused(hml::devices::l40s, precision::fp32, hml::basis::measured),
            std::string{hml::devices::l40s.name} + " publishes no measured FP32 (vector or tensor) peak; it has no measured peak at all");
  // The V100's measured roof: ERT's FP64 FMA rate over its HBM bandwidth.
  const hml::roof ert = hml::roof_named(hml::devices::v100, precision::fp64, hml::basis::measured);
  EXPECT_EQ(ert.bandwidth, hml::main_memory(hml::devices::v100).measured_bandwidth.value);
  EXPECT_EQ(ert.peak, hml::find_ceiling(hml::devices::v100, {precision::fp64, compute_unit::vector})->measured.value);
}

TEST(DeviceLookup, TableHasEveryFigureWithItsKindAndSources) {
  const hml::table t = hml::device_table();
  ASSERT_EQ(t.rows.size(), hml::devices::all.size());
  const auto column = [&](std::string_view name) {
    for (std::size_t c = 0; c < t.columns.size(); ++c) {
      if (t.columns[c] == name) return c;
    }
    ADD_FAILURE() << "no column " << name;
    return std::size_t{0};
  };
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    const hml::device& d = *hml::devices::all[i];
    const auto& row = t.rows[i];
    const hml::level_description& main = hml::main_memory(d);
    // A figure's value, or no value where it is not published (a 0 would read as a figure).
    const auto value_is = [&](std::string_view name, const auto& f) {
      if (f.published()) {
        EXPECT_EQ(std::get<double>(row[column(name)]), f.value.value()) << d.id << " " << name;
      } else {
        EXPECT_TRUE(std::holds_alternative<hml::no_value>(row[column(name)])) << d.id << " " << name;
      }
    };
    EXPECT_EQ(std::get<std::string>(row[column("id")]), d.id);
    value_is("bandwidth", main.bandwidth);
    value_is("capacity", main.capacity);
    value_is("measured_bandwidth", main.measured_bandwidth);
    EXPECT_EQ(std::get<std::string>(row[column("memory")]), main.name);
    for (precision p : hml::all_precisions) {
      for (compute_unit u : {compute_unit::vector, compute_unit::tensor}) {
        const hml::compute_kind k{p, u};
        const std::string id = hml::id_of(k);
        const bool any = [&] {
          for (const hml::device* other : hml::devices::all) {
            if (hml::find_ceiling(*other, k) != nullptr) return true;
          }
          return false;
        }();
        const bool has_column = [&] {
          for (const std::string& c : t.columns) {
            if (c == id) return true;
          }
          return false;
        }();
        ASSERT_EQ(has_column, any) << id;  // a column for every kind some device has, and no other
        if (!any) continue;
        const hml::figure<hml::compute_rate> f = hml::peak(d, k);
        value_is(id, f);
        EXPECT_EQ(std::get<std::string>(row[column(id + "_kind")]), f.published() ? hml::to_string(f.kind) : "not published");
      }
    }
    // Every cited key is a source of the catalog.
    const std::string keys = std::get<std::string>(row[column("sources")]);
    EXPECT_FALSE(keys.empty()) << d.id;
    for (std::string_view key : hml::cited_sources(d)) {
      EXPECT_NE(keys.find(key), std::string::npos) << key;
      EXPECT_NE(hml::devices::find_source(key), nullptr) << key;
    }
  }
}

}  // namespace
