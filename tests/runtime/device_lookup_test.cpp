// hml::find_device / device_named / closest_device_ids, precisions by name, and the catalog table.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

import hml;

namespace {

using ids = std::vector<std::string_view>;

TEST(DeviceLookup, IdsAndNamesInAnyCaseAndSeparator) {
  for (const hml::device_id& entry : hml::device_ids) {
    EXPECT_EQ(hml::find_device(entry.id), entry.entry) << entry.id;
    EXPECT_EQ(hml::find_device(entry.entry->name), entry.entry) << entry.entry->name;
    EXPECT_EQ(hml::id_of(*entry.entry), entry.id);
  }
  EXPECT_EQ(hml::find_device("H100-SXM"), &hml::devices::h100_sxm);
  EXPECT_EQ(hml::find_device("h100 pcie"), &hml::devices::h100_pcie);
  EXPECT_EQ(hml::find_device("RTX4090"), &hml::devices::rtx_4090);
  EXPECT_EQ(hml::find_device("nvidia h100 sxm5 80gb"), &hml::devices::h100_sxm);
  EXPECT_EQ(hml::find_device("h100"), nullptr);  // two devices: not a name of either
  EXPECT_EQ(hml::find_device(""), nullptr);
  EXPECT_EQ(hml::find_device("__"), nullptr);
}

TEST(DeviceLookup, SuggestionsPreferPrefixesThenCloseSpellings) {
  EXPECT_EQ(hml::closest_device_ids("h10"), (ids{"h100_sxm", "h100_pcie"}));
  EXPECT_EQ(hml::closest_device_ids("a100"), (ids{"a100_sxm_80gb", "a100_sxm_40gb"}));
  EXPECT_EQ(hml::closest_device_ids("4090"), (ids{"rtx_4090"}));              // contained in the id
  EXPECT_EQ(hml::closest_device_ids("instinct"), (ids{"mi300x", "mi250x"}));  // contained in the name
  EXPECT_EQ(hml::closest_device_ids("mi3000x"), (ids{"mi300x"}));             // one edit away
  EXPECT_EQ(hml::closest_device_ids("h300"), (ids{"h200"}));                  // b200 is two edits away
  EXPECT_EQ(hml::closest_device_ids("rtx-4080"), (ids{"rtx_4090"}));
  EXPECT_TRUE(hml::closest_device_ids("quantum annealer").empty());
  EXPECT_EQ(hml::closest_device_ids("h", 1).size(), 1u);
}

TEST(DeviceLookup, UnknownDeviceErrorSaysWhatToType) {
  try {
    (void)hml::device_named("h10");
    FAIL() << "h10 was found";
  } catch (const hml::unknown_device_error& e) {
    EXPECT_EQ(std::string{e.what()}, "unknown device 'h10'; did you mean h100_sxm, h100_pcie?");
    EXPECT_EQ(e.suggestions(), (ids{"h100_sxm", "h100_pcie"}));
  }
  try {
    (void)hml::device_named("zzz");
    FAIL() << "zzz was found";
  } catch (const hml::unknown_device_error& e) {
    const std::string message = e.what();
    EXPECT_TRUE(message.starts_with("unknown device 'zzz'; known devices: h100_sxm, h100_pcie,")) << message;
    for (const hml::device_id& entry : hml::device_ids) EXPECT_NE(message.find(entry.id), std::string::npos);
  }
}

TEST(DeviceLookup, PrecisionsAndRoofs) {
  for (hml::precision p : hml::all_precisions) {
    EXPECT_EQ(hml::precision_named(hml::id_of(p)), p);
    EXPECT_EQ(hml::precision_named(hml::to_string(p)), p);  // "FP16 tensor"
  }
  EXPECT_THROW((void)hml::precision_named("fp8"), std::invalid_argument);
  const hml::roof r = hml::roof_named(hml::devices::h100_sxm, hml::precision::fp64);
  EXPECT_EQ(r.peak, hml::devices::h100_sxm.fp64.value);
  EXPECT_EQ(r.bandwidth, hml::devices::h100_sxm.bandwidth.value);
  try {
    (void)hml::roof_named(hml::devices::v100, hml::precision::tf32_tensor);
    FAIL() << "the V100 has no TF32 tensor peak";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string{e.what()}, std::string{hml::devices::v100.name} + " publishes no TF32 tensor peak");
  }
}

TEST(DeviceLookup, TableHasEveryFigureWithItsKind) {
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
    EXPECT_EQ(std::get<std::string>(row[column("id")]), hml::id_of(d));
    EXPECT_EQ(std::get<double>(row[column("bandwidth")]), d.bandwidth.value.value());
    for (hml::precision p : hml::all_precisions) {
      const std::string id{hml::id_of(p)};
      EXPECT_EQ(std::get<double>(row[column(id)]), hml::peak(d, p).value.value());
      EXPECT_EQ(std::get<std::string>(row[column(id + "_kind")]),
                hml::peak(d, p).published() ? hml::to_string(hml::peak(d, p).kind) : "not published");
    }
    EXPECT_EQ(std::get<std::string>(row[column("source")]), d.source);
  }
}

}  // namespace
