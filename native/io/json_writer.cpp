#include "io/json_writer.hpp"

#include <cmath>
#include <string_view>

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "core/transfer.hpp"
#include "io/json_lexer.hpp"
#include "io/value_text.hpp"

namespace gpudf::json {
namespace {

constexpr int64_t kRowsPerChunk = 8192;

/// Appends the JSON text of row i of a host column (not null).
struct ValueWriter {
  template <TypeId T>
  void operator()(std::string& out, const ColumnView& v, int64_t i) const {
    using S = storage_t<T>;
    if constexpr (std::is_arithmetic_v<S>) {
      const S x = v.values<S>()[i];
      if constexpr (T == TypeId::Bool) {
        out.append(x ? "true" : "false");
      } else if constexpr (T == TypeId::Float32 || T == TypeId::Float64) {
        if (!std::isfinite(x)) return out.append("null"), void();
        const size_t start = out.size();
        io::put_float(out, x);
        if (std::string_view(out).substr(start).find_first_of(".e") == std::string_view::npos) out.append(".0");
      } else if constexpr (T == TypeId::Date32) {
        out.push_back('"');
        io::put_date(out, x);
        out.push_back('"');
      } else if constexpr (is_duration(T)) {
        io::put_int(out, x);  // the count of the unit, as toJSON gives it (the readers take ISO text too)
      } else if constexpr (is_timestamp(T)) {
        constexpr int64_t per_second = T == TypeId::TimestampS ? 1 : T == TypeId::TimestampMs ? 1000 : T == TypeId::TimestampUs ? 1000000 : 1000000000;
        constexpr int digits = T == TypeId::TimestampS ? 0 : T == TypeId::TimestampMs ? 3 : T == TypeId::TimestampUs ? 6 : 9;
        out.push_back('"');
        io::put_timestamp(out, x, per_second, digits);
        out.push_back('"');
      } else {
        io::put_int(out, x);
      }
    } else {
      using O = typename S::offset_type;
      const O* offs = v.string_offsets<O>();
      put_json_string(out, std::string_view(reinterpret_cast<const char*>(v.data) + offs[i], size_t(offs[i + 1] - offs[i])));
    }
  }
};

}  // namespace

void write_json(const std::vector<std::string>& names, const std::vector<ColumnPtr>& columns, bool ndjson,
                const std::function<void(const std::string&)>& sink) {
  GPUDF_EXPECTS(names.size() == columns.size(), InvalidArgument, "one name per column");
  std::vector<ColumnPtr> host;
  std::vector<ColumnView> views;
  for (const auto& c : columns) host.push_back(to_host(c));
  for (const auto& c : host) views.push_back(c->view());
  const int64_t rows = views.empty() ? 0 : views[0].size;
  // Each member's `"name":` is formatted once.
  std::vector<std::string> keys;
  for (size_t j = 0; j < names.size(); ++j) {
    std::string k = j ? "," : "";
    put_json_string(k, names[j]);
    k.push_back(':');
    keys.push_back(std::move(k));
  }
  if (!ndjson) sink("[");
  io::format_rows_parallel(rows, kRowsPerChunk, [&](std::string& out, int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) {
      if (!ndjson && r > 0) out.push_back(',');
      out.push_back('{');
      for (size_t j = 0; j < views.size(); ++j) {
        out.append(keys[j]);
        const ColumnView& v = views[j];
        if (!v.is_valid(r)) out.append("null");
        else type_dispatch(v.type, ValueWriter{}, out, v, r);
      }
      out.push_back('}');
      if (ndjson) out.push_back('\n');
    }
  }, sink);
  if (!ndjson) sink("]");
}

}  // namespace gpudf::json
