// The over cache of ops/window/over_cache.hpp: a thread's map from partition (and order)
// identities to their group ids and permutations, open while an expression list is evaluated.
#include "ops/window/over_cache.hpp"

#include "ops/window/window_expr.hpp"

#include <atomic>
#include <cstring>
#include <map>
#include <memory>

namespace gpudf::window {
namespace {

struct OverCache {
  std::map<std::string, std::pair<OverGrouping, std::vector<ColumnPtr>>> groupings;
  std::map<std::string, std::pair<OverSort, std::vector<ColumnPtr>>> sorts;
};

thread_local OverCache* current = nullptr;
std::atomic<int64_t> grouping_passes{0}, sort_passes{0};

void put(std::string& out, const std::string& s) {
  out += std::to_string(s.size());
  out += ':';
  out += s;
}

void put(std::string& out, int64_t v) {
  out += std::to_string(v);
  out += ',';
}

void put(std::string& out, const expr::LiteralSpec& v) {
  uint64_t bits = 0;
  std::memcpy(&bits, &v.number, sizeof bits);
  put(out, int64_t(v.kind));
  put(out, int64_t(bits));
  put(out, v.bigint);
  put(out, int64_t(v.big_unsigned) * 2 + int64_t(v.boolean));
  put(out, v.text);
}

void put(std::string& out, const expr::NodeSpec& n) {
  put(out, n.op);
  put(out, int64_t(n.args.size()));
  for (int32_t a : n.args) put(out, int64_t(a));
  put(out, n.name);
  put(out, n.value);
  put(out, int64_t(n.dtype));
  put(out, int64_t(n.params.size()));
  for (int64_t p : n.params) put(out, p);
  put(out, int64_t(n.list.size()));
  for (const expr::LiteralSpec& l : n.list) put(out, l);
  put(out, n.agg_kind);
  put(out, n.ddof);
  uint64_t q = 0;
  std::memcpy(&q, &n.q, sizeof q);
  put(out, int64_t(q));
  out += ';';
}

}  // namespace

OverCacheScope::OverCacheScope() {
  if (current) return;
  current = new OverCache();
  owner_ = true;
}

OverCacheScope::~OverCacheScope() {
  if (!owner_) return;
  delete current;
  current = nullptr;
}

namespace {
thread_local std::vector<std::unique_ptr<OverCacheScope>> open_scopes;
}  // namespace

void open_over_cache() { open_scopes.push_back(std::make_unique<OverCacheScope>()); }

void close_over_cache() {
  if (!open_scopes.empty()) open_scopes.pop_back();
}

OverKey over_identity(const std::vector<expr::NodeSpec>& specs, const std::vector<int32_t>& roots, const expr::Frame& frame) {
  OverKey k;
  put(k.text, frame.rows);
  put(k.text, int64_t(reinterpret_cast<uintptr_t>(frame.segments.get())));
  if (frame.segments) k.pinned.push_back(frame.segments);
  for (int32_t r : roots) {
    k.text += '[';
    for (const expr::NodeSpec& n : subtree_of(specs, r)) {
      put(k.text, n);
      if (n.op != "col") continue;
      for (size_t c = 0; c < frame.names.size(); ++c) {
        if (frame.names[c] != n.name) continue;
        put(k.text, int64_t(reinterpret_cast<uintptr_t>(frame.columns[c].get())));
        k.pinned.push_back(frame.columns[c]);
        break;
      }
    }
    k.text += ']';
  }
  return k;
}

OverGrouping cached_grouping(const OverKey& key, const std::function<OverGrouping()>& make) {
  if (current) {
    auto it = current->groupings.find(key.text);
    if (it != current->groupings.end()) return it->second.first;
  }
  OverGrouping g = make();
  ++grouping_passes;
  if (current) current->groupings.emplace(key.text, std::make_pair(g, key.pinned));
  return g;
}

OverSort cached_sort(const OverKey& key, const std::function<OverSort()>& make) {
  if (current) {
    auto it = current->sorts.find(key.text);
    if (it != current->sorts.end()) return it->second.first;
  }
  OverSort s = make();
  ++sort_passes;
  if (current) current->sorts.emplace(key.text, std::make_pair(s, key.pinned));
  return s;
}

OverPasses over_passes() { return OverPasses{grouping_passes.load(), sort_passes.load()}; }

}  // namespace gpudf::window
