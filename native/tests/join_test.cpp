// ops/join: gather maps on the test device against a naive nested-loop reference, for every how,
// with duplicates, nulls (matching or not), multiple keys, strings, slices and partitioned sizes;
// key promotion; gather_or_null.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "ops/gather/gather.hpp"
#include "ops/join/join.hpp"
#include "tests/helpers.hpp"
#include "tests/testing.hpp"

using namespace gpudf;
using namespace gpudf::testing;

namespace {

using Pair = std::pair<int64_t, int64_t>;

/// The reference: nested loops with rows_equal on host columns.
std::vector<Pair> reference(const std::vector<ColumnView>& l, const std::vector<ColumnView>& r,
                            JoinHow how, bool nulls_equal) {
  const int32_t nk = int32_t(l.size());
  const int64_t nl = l[0].size, nr = r[0].size;
  auto match = [&](int64_t i, int64_t j) {
    if (!nulls_equal && (any_key_null(l.data(), nk, i) || any_key_null(r.data(), nk, j))) return false;
    return rows_equal(l.data(), i, r.data(), j, nk);
  };
  std::vector<Pair> out;
  std::vector<bool> right_hit(size_t(nr), false);
  for (int64_t i = 0; i < nl; ++i) {
    bool any = false;
    for (int64_t j = 0; j < nr; ++j)
      if (match(i, j)) {
        any = true;
        right_hit[size_t(j)] = true;
        if (how != JoinHow::Semi && how != JoinHow::Anti) out.push_back({i, j});
      }
    if (how == JoinHow::Semi && any) out.push_back({i, -1});
    if (how == JoinHow::Anti && !any) out.push_back({i, -1});
    if ((how == JoinHow::Left || how == JoinHow::Full) && !any) out.push_back({i, -1});
  }
  if (how == JoinHow::Right || how == JoinHow::Full)
    for (int64_t j = 0; j < nr; ++j)
      if (!right_hit[size_t(j)]) out.push_back({-1, j});
  return out;
}

std::vector<Pair> pairs_of(const JoinMaps& m) {
  auto l = read_values<int64_t>(to_host(m.left));
  std::vector<Pair> out;
  if (!m.right) {
    for (auto& v : l) out.push_back({*v, -1});
    return out;
  }
  auto r = read_values<int64_t>(to_host(m.right));
  for (size_t i = 0; i < l.size(); ++i) out.push_back({*l[i], *r[i]});
  return out;
}

void check_join(const std::vector<ColumnPtr>& lk, const std::vector<ColumnPtr>& rk, const char* what) {
  std::vector<ColumnView> lh, rh, ld, rd;
  std::vector<ColumnPtr> keep;
  for (auto& c : lk) {
    lh.push_back(c->view());
    keep.push_back(on_test_device(c));
    ld.push_back(keep.back()->view());
  }
  for (auto& c : rk) {
    rh.push_back(c->view());
    keep.push_back(on_test_device(c));
    rd.push_back(keep.back()->view());
  }
  for (JoinHow how : {JoinHow::Inner, JoinHow::Left, JoinHow::Right, JoinHow::Full, JoinHow::Semi, JoinHow::Anti})
    for (bool ne : {false, true})
      for (JoinOrder order : {JoinOrder::None, JoinOrder::Left, JoinOrder::LeftRight, JoinOrder::Right}) {
        SCOPED_TRACE(std::string(what) + " how=" + std::to_string(int(how)) + " nullsEqual=" +
                     std::to_string(ne) + " order=" + std::to_string(int(order)));
        JoinMaps m = join_maps(ld, rd, how, ne, order);
        std::vector<Pair> got = pairs_of(m), want = reference(lh, rh, how, ne);
        if (order == JoinOrder::LeftRight && how != JoinHow::Right && how != JoinHow::Full) {
          // Left order, then right order: exactly the nested loops' order.
          EXPECT_EQ(got, want);
        } else if (order == JoinOrder::Left || order == JoinOrder::LeftRight) {
          std::vector<int64_t> lefts;
          for (auto& p : got)
            if (p.first >= 0) lefts.push_back(p.first);
          EXPECT_TRUE(std::is_sorted(lefts.begin(), lefts.end()));
          size_t first_missing = got.size();
          for (size_t i = 0; i < got.size(); ++i)
            if (got[i].first < 0) first_missing = std::min(first_missing, i);
          for (size_t i = first_missing; i < got.size(); ++i) EXPECT_EQ(got[i].first, -1);
        } else if (order == JoinOrder::Right && how != JoinHow::Semi && how != JoinHow::Anti) {
          std::vector<int64_t> rights;
          for (auto& p : got)
            if (p.second >= 0) rights.push_back(p.second);
          EXPECT_TRUE(std::is_sorted(rights.begin(), rights.end()));
        }
        std::sort(got.begin(), got.end());
        std::sort(want.begin(), want.end());
        EXPECT_EQ(got, want);
        bool lmiss = false, rmiss = false;
        for (auto& p : want) {
          lmiss |= p.first < 0;
          rmiss |= p.second < 0 && how != JoinHow::Semi && how != JoinHow::Anti;
        }
        EXPECT_EQ(m.left_has_missing, lmiss);
        EXPECT_EQ(m.right_has_missing, rmiss);
      }
}

std::vector<ColumnPtr> random_int_keys(int64_t n, int64_t distinct, int null_pct, uint64_t seed) {
  Rng rng(seed);
  std::vector<int64_t> a(static_cast<size_t>(n)), b(static_cast<size_t>(n));
  std::vector<bool> va(static_cast<size_t>(n)), vb(static_cast<size_t>(n), true);
  for (int64_t i = 0; i < n; ++i) {
    a[size_t(i)] = int64_t(rng.next() % uint64_t(distinct));
    b[size_t(i)] = int64_t(rng.next() % 3);
    va[size_t(i)] = !rng.coin(null_pct);
  }
  return {host_column<int64_t>(TypeId::Int64, a, va), host_column<int64_t>(TypeId::Int64, b, vb)};
}

}  // namespace

TEST(join, every_how_with_duplicates_and_nulls) {
  auto l = host_column<int32_t>(TypeId::Int32, {1, 2, 2, 3, 0, 5, 0}, {true, true, true, true, false, true, false});
  auto r = host_column<int32_t>(TypeId::Int32, {2, 2, 3, 4, 0, 1}, {true, true, true, true, false, true});
  check_join({l}, {r}, "small int32");
}

TEST(join, multi_key_random_sizes_across_the_partition_threshold) {
  for (int64_t n : {0, 1, 31, 33, 65, 300}) {
    auto l = random_int_keys(n, 7, 10, 11 + uint64_t(n));
    auto r = random_int_keys(n / 2 + 1, 7, 10, 99 + uint64_t(n));
    check_join(l, r, ("multi n=" + std::to_string(n)).c_str());
    check_join(r, l, ("multi, larger right, n=" + std::to_string(n)).c_str());  // inner probes right
  }
  // A left side under a quarter of the right: semi / anti joins mark the left rows.
  auto small = random_int_keys(20, 7, 10, 5);
  auto big = random_int_keys(400, 7, 10, 6);
  check_join(small, big, "multi, small left");
}

TEST(join, strings_floats_and_slices) {
  auto ls = host_strings(TypeId::Utf8, {std::string("x"), std::string("héllo"), std::nullopt, std::string(""),
                                        std::string("日本"), std::string("héllo"), std::string("zz")});
  auto rs = host_strings(TypeId::Utf8, {std::string("héllo"), std::string(""), std::nullopt, std::string("日本"),
                                        std::string("q"), std::string("héllo")});
  check_join({ls->slice(1, 6)}, {rs->slice(0, 6)}, "strings");
  double nan = std::nan("");
  auto lf = host_column<double>(TypeId::Float64, {0.0, -0.0, nan, 1.5, 2.0}, {true, true, true, true, false});
  auto rf = host_column<double>(TypeId::Float64, {-0.0, nan, -nan, 3.0, 2.0}, {true, true, true, true, false});
  check_join({lf}, {rf}, "floats");
}

TEST(join, large_partitioned_build_matches_the_reference_counts) {
  // > 2^14 build rows: several partitions. Every left key k in [0, 50000) has k % 3 + 1 right rows.
  const int64_t n = 50000;
  std::vector<int64_t> lv(static_cast<size_t>(n)), rv;
  for (int64_t i = 0; i < n; ++i) {
    lv[size_t(i)] = (i * 7919) % (n + 1000);
    for (int64_t d = 0; d <= i % 3; ++d) rv.push_back(i);
  }
  auto l = on_test_device(host_column<int64_t>(TypeId::Int64, lv));
  auto r = on_test_device(host_column<int64_t>(TypeId::Int64, rv));
  JoinMaps m = join_maps({l->view()}, {r->view()}, JoinHow::Inner, false, JoinOrder::LeftRight);
  auto got = pairs_of(m);
  int64_t expect = 0;
  for (int64_t v : lv)
    if (v < n) expect += v % 3 + 1;
  ASSERT_EQ(int64_t(got.size()), expect);
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(lv[size_t(got[i].first)], rv[size_t(got[i].second)]);
    if (i > 0) EXPECT_TRUE(got[i - 1] < got[i]);
  }
  JoinMaps anti = join_maps({l->view()}, {r->view()}, JoinHow::Anti, false, JoinOrder::None);
  EXPECT_EQ(anti.left->size(), n - int64_t(std::count_if(lv.begin(), lv.end(), [&](int64_t v) { return v < n; })));
}

TEST(join, cross_maps_are_left_major) {
  JoinMaps m = cross_maps(test_device(), 3, 2);
  std::vector<Pair> want{{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 0}, {2, 1}};
  EXPECT_EQ(pairs_of(m), want);
  EXPECT_EQ(cross_maps(test_device(), 0, 5).left->size(), 0);
}

TEST(join, key_promotion_and_errors) {
  std::vector<ColumnPtr> l{on_test_device(host_column<int32_t>(TypeId::Int32, {1, 2, 3}))};
  std::vector<ColumnPtr> r{on_test_device(host_column<int64_t>(TypeId::Int64, {3, 1, int64_t(1) << 40}))};
  promote_join_keys(l, r);
  EXPECT_EQ(l[0]->type(), TypeId::Int64);
  EXPECT_EQ(r[0]->type(), TypeId::Int64);
  JoinMaps m = join_maps({l[0]->view()}, {r[0]->view()}, JoinHow::Inner, false, JoinOrder::Left);
  EXPECT_EQ(pairs_of(m), (std::vector<Pair>{{0, 1}, {2, 0}}));
  std::vector<ColumnPtr> s{on_test_device(host_strings(TypeId::Utf8, {std::string("1")}))};
  std::vector<ColumnPtr> i{on_test_device(host_column<int64_t>(TypeId::Int64, {1}))};
  EXPECT_THROW_CODE(promote_join_keys(s, i), ErrorCode::Dtype);
  std::vector<ColumnPtr> none;
  EXPECT_THROW_CODE(promote_join_keys(none, none), ErrorCode::InvalidArgument);
  EXPECT_THROW_CODE(join_maps({s[0]->view()}, {i[0]->view()}, JoinHow::Inner, false, JoinOrder::None),
                    ErrorCode::Dtype);
}

TEST(join, gather_or_null_and_coalesced_keys) {
  auto v = on_test_device(host_strings(TypeId::Utf8, {std::string("a"), std::string("héllo")}));
  auto idx = on_test_device(host_column<int64_t>(TypeId::Int64, {1, -1, 0, -1}));
  auto out = gather_or_null(v->view(), idx->view(), true);
  EXPECT_EQ(read_strings(out), (std::vector<std::optional<std::string>>{std::string("héllo"), std::nullopt,
                                                                         std::string("a"), std::nullopt}));
  auto n = on_test_device(host_column<int32_t>(TypeId::Int32, {7, 8}));
  EXPECT_EQ(read_values<int32_t>(gather_or_null(n->view(), idx->view(), true)),
            (std::vector<std::optional<int32_t>>{8, std::nullopt, 7, std::nullopt}));
  auto lk = on_test_device(host_column<int64_t>(TypeId::Int64, {1, 2}));
  auto rk = on_test_device(host_column<int64_t>(TypeId::Int64, {2, 3}));
  JoinMaps m = join_maps({lk->view()}, {rk->view()}, JoinHow::Full, false, JoinOrder::None);
  auto keys = read_values<int64_t>(coalesce_keys(lk->view(), rk->view(), m));
  std::sort(keys.begin(), keys.end());
  EXPECT_EQ(keys, (std::vector<std::optional<int64_t>>{1, 2, 3}));
}

TEST(join, single_integer_keys_of_every_width_dense_and_sparse) {
  // Dense values (the CPU's direct-index table), sparse ones (the hash table behind a presence
  // bitmap, and without one when the span is wider still), negative values, nulls, probe
  // values outside the build side's range, both sides as build, and a left side small enough
  // for semi / anti joins by marking.
  for (int64_t spread : {int64_t(1), int64_t(100000), int64_t(1) << 40}) {
    for (TypeId t : {TypeId::Int8, TypeId::Int16, TypeId::Int32, TypeId::UInt32, TypeId::Int64, TypeId::Date32}) {
      if (spread > 1 && t != TypeId::Int64) continue;
      for (auto [nl, nr] : {std::pair<int64_t, int64_t>{40, 70}, {300, 9}, {1000, 1000}, {12, 500}}) {
        SCOPED_TRACE(std::string(type_name(t)) + " spread=" + std::to_string(spread) + " rows=" + std::to_string(nl) + "x" + std::to_string(nr));
        Rng rng{uint64_t(nl * 7 + nr) + uint64_t(t)};
        auto make = [&](int64_t n, int64_t lo, int64_t hi) {
          std::vector<int64_t> v(static_cast<size_t>(n));
          std::vector<bool> ok(static_cast<size_t>(n));
          for (int64_t i = 0; i < n; ++i) {
            v[size_t(i)] = (lo + int64_t(rng.next() % uint64_t(hi - lo + 1))) * spread;
            ok[size_t(i)] = !rng.coin(10);
          }
          ColumnPtr c64 = host_column<int64_t>(TypeId::Int64, v, ok);
          if (t == TypeId::Int64) return c64;
          ColumnPtr out = Column::allocate(cpu_device(), t, n, true);
          for (int64_t i = 0; i < n; ++i) {
            const int64_t x = v[size_t(i)];
            switch (value_width(t)) {
              case 1: reinterpret_cast<int8_t*>(out->data()->data())[i] = int8_t(x); break;
              case 2: reinterpret_cast<int16_t*>(out->data()->data())[i] = int16_t(x); break;
              default: reinterpret_cast<int32_t*>(out->data()->data())[i] = int32_t(x); break;
            }
            if (ok[size_t(i)]) set_bit(out->validity()->data(), i);
          }
          return out;
        };
        const bool is_unsigned = t == TypeId::UInt32;
        ColumnPtr l = make(nl, is_unsigned ? 0 : -20, 40), r = make(nr, is_unsigned ? 5 : -5, 60);
        check_join({l}, {r}, "single key");
      }
    }
  }
}

TEST(join, a_table_built_once_and_probed_in_pieces_gives_the_whole_join) {
  // What the query engine's pipelines do: one table, one probe per morsel; the pieces' maps,
  // probe rows offset by each piece's start, are the whole probe's (as multisets; and on the
  // CPU in the same order, probe rows ascending).
  auto probe = random_int_keys(700, 23, 10, 5);
  auto build = random_int_keys(90, 23, 10, 6);
  std::vector<ColumnView> ph, bh, pd, bd;
  std::vector<ColumnPtr> keep, probe_dev;
  for (auto& c : probe) {
    ph.push_back(c->view());
    probe_dev.push_back(on_test_device(c));
    pd.push_back(probe_dev.back()->view());
  }
  for (auto& c : build) {
    bh.push_back(c->view());
    keep.push_back(on_test_device(c));
    bd.push_back(keep.back()->view());
  }
  for (bool ne : {false, true}) {
    auto table = build_join_table(bd, ne);
    for (JoinHow how : {JoinHow::Inner, JoinHow::Left, JoinHow::Semi, JoinHow::Anti}) {
      SCOPED_TRACE("how=" + std::to_string(int(how)) + " nullsEqual=" + std::to_string(ne));
      std::vector<Pair> pieces;
      for (int64_t at : {int64_t(0), int64_t(250), int64_t(251), int64_t(600)}) {
        const int64_t end = at == 0 ? 250 : at == 250 ? 251 : at == 251 ? 600 : 700;
        std::vector<ColumnPtr> sliced;
        std::vector<ColumnView> part;
        for (const ColumnPtr& c : probe_dev) {
          sliced.push_back(c->slice(at, end - at));
          part.push_back(sliced.back()->view());
        }
        JoinMaps m = probe_join_table(*table, part, how);
        for (Pair p : pairs_of(m)) pieces.push_back({p.first + at, p.second});
      }
      std::vector<Pair> whole = pairs_of(probe_join_table(*table, pd, how)), want = reference(ph, bh, how, ne);
      std::vector<int64_t> rows;
      for (const Pair& p : pieces) rows.push_back(p.first);
      EXPECT_TRUE(std::is_sorted(rows.begin(), rows.end()));
      if (test_device().kind() == DeviceKind::Cpu) EXPECT_EQ(pieces, whole);
      std::sort(pieces.begin(), pieces.end());
      std::sort(whole.begin(), whole.end());
      std::sort(want.begin(), want.end());
      EXPECT_EQ(pieces, want);
      EXPECT_EQ(whole, want);
    }
    EXPECT_THROW_CODE(probe_join_table(*table, pd, JoinHow::Full), ErrorCode::InvalidArgument);
  }
}
