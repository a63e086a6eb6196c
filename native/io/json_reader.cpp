#include "core/duration_text.hpp"
#include "io/json_reader.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <limits>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "core/host_vector.hpp"
#include "core/thread_pool.hpp"
#include "core/transfer.hpp"
#include "io/csv_fields.hpp"
#include "io/json_lexer.hpp"
#include "io/value_text.hpp"

namespace gpudf::json {
namespace {

// NDJSON chunks are at least this large, so small inputs are parsed by one task.
constexpr int64_t kMinChunkBytes = 1 << 20;

/// One value as parsed. Int / Bool: `v` is the value. Float: `v` is the input offset of the
/// number's text. Str: `v` is the offset of the text in the input, or in the chunk's pool.
struct Cell {
  int64_t v = 0;
  uint32_t len = 0;
  Kind kind = Kind::Null;
  bool pooled = false;
};

struct ChunkColumn {
  std::string name;
  HostVector<Cell> cells;
  uint8_t kinds = 0;  // bit per Kind seen (nulls not counted)
};

/// A byte range of one input and what parsing it gave.
struct Chunk {
  const JsonInput* input = nullptr;
  int64_t begin = 0, end = 0;
  /// A JSON array's chunk: records separated by commas, without the brackets (false: the
  /// whole document, or NDJSON lines). `sole`: the array's only chunk (it may be empty).
  bool elements = false;
  bool sole = false;
  std::vector<ChunkColumn> cols;
  std::vector<std::pair<std::string, int32_t>> keys;  // key -> column (-1: not read)
  std::unordered_map<std::string, int32_t> key_index;
  HostString pool;  // strings whose text is not the input's (unescaped)
  HostVector<int64_t> record_pos;  // where each record starts (for messages)
  int64_t rows = 0;

  std::string_view text(const Cell& c) const {
    return std::string_view((c.pooled ? pool.data() : input->data) + c.v, c.len);
  }
};

/// Parses a chunk's records (at most `limit`, -1: all).
class ChunkParser {
 public:
  ChunkParser(Chunk& chunk, const JsonOptions& o, const std::unordered_set<std::string>* selected)
      : c_(chunk), o_(o), selected_(selected) {}

  void run(int64_t limit) {
    const JsonInput& in = *c_.input;
    if (o_.ndjson) {
      int64_t pos = c_.begin;
      while (pos < c_.end && (limit < 0 || c_.rows < limit)) {
        const void* nl = std::memchr(in.data + pos, '\n', size_t(c_.end - pos));
        const int64_t line_end = nl ? static_cast<const char*>(nl) - in.data : c_.end;
        Lexer lex(in.data, pos, line_end, in.label);
        if (!lex.at_end()) {
          one_record(lex);
          if (!lex.at_end()) lex.fail("trailing characters after the record");
        }
        pos = line_end + 1;
      }
      return;
    }
    Lexer lex(in.data, c_.begin, c_.end, in.label);
    if (c_.elements) {
      if (c_.sole && lex.at_end()) return;
      while (true) {
        one_record(lex);
        if (lex.at_end()) return;
        lex.expect(',', "expected ',' or ']' after a record in the array");
      }
    }
    lex.expect('[', "expected '[' (readJSON reads a top-level array of records; readNDJSON one record per line)");
    if (lex.peek() == ']') {
      lex.expect(']', "");
    } else {
      while (limit < 0 || c_.rows < limit) {
        one_record(lex);
        const int c = lex.peek();
        if (c == ']') {
          lex.expect(']', "");
          break;
        }
        lex.expect(',', "expected ',' or ']' after a record in the array");
      }
      if (limit >= 0 && c_.rows >= limit) return;  // the rest is not read
    }
    if (!lex.at_end()) lex.fail("trailing characters after the array");
  }

 private:
  void one_record(Lexer& lex) {
    lex.skip_ws();
    c_.record_pos.push_back(lex.pos());
    member_ = 0;
    lex.record([&](std::string_view key) { return want(key); }, [&](std::string_view, const Scalar& s) { take(s); });
    ++c_.rows;
  }

  bool want(std::string_view key) {
    // Records usually list their keys in the same order: try the previous record's k-th key.
    int32_t id = -1;
    if (member_ < order_.size()) {
      const int32_t guess = order_[member_];
      if (c_.keys[size_t(guess)].first == key) id = guess;
    }
    if (id < 0) {
      auto it = c_.key_index.find(std::string(key));
      if (it != c_.key_index.end()) {
        id = it->second;
      } else {
        int32_t col = -1;
        if (selected_ == nullptr || selected_->count(std::string(key))) {
          col = int32_t(c_.cols.size());
          c_.cols.push_back(ChunkColumn{std::string(key), {}, 0});
        }
        id = int32_t(c_.keys.size());
        c_.keys.emplace_back(std::string(key), col);
        c_.key_index.emplace(std::string(key), id);
      }
    }
    if (member_ < order_.size()) order_[member_] = id;
    else order_.push_back(id);
    ++member_;
    current_ = c_.keys[size_t(id)].second;
    return current_ >= 0;
  }

  void take(const Scalar& s) {
    ChunkColumn& col = c_.cols[size_t(current_)];
    if (int64_t(col.cells.size()) <= c_.rows) col.cells.resize(size_t(c_.rows + 1));
    Cell& cell = col.cells[size_t(c_.rows)];  // a key repeated in a record: the last value counts
    cell = Cell{};
    cell.kind = s.kind;
    if (s.kind != Kind::Null) col.kinds |= uint8_t(1u << unsigned(s.kind));
    switch (s.kind) {
      case Kind::Int:
      case Kind::Bool: cell.v = s.value; break;
      case Kind::Float:
        cell.v = s.text.data() - c_.input->data;
        cell.len = uint32_t(s.text.size());
        break;
      case Kind::Str:
        GPUDF_EXPECTS(s.text.size() <= std::numeric_limits<uint32_t>::max(), JsonParse, "a string over 4 GiB");
        cell.len = uint32_t(s.text.size());
        if (s.in_input) {
          cell.v = s.text.data() - c_.input->data;
        } else {
          cell.pooled = true;
          cell.v = int64_t(c_.pool.size());
          c_.pool.append(s.text);
        }
        break;
      case Kind::Null: break;
    }
  }

  Chunk& c_;
  const JsonOptions& o_;
  const std::unordered_set<std::string>* selected_;
  std::vector<int32_t> order_;
  size_t member_ = 0;
  int32_t current_ = -1;
};

/// Splits an NDJSON input at line breaks into about `parts` chunks.
void split_ndjson(const JsonInput& in, int64_t parts, std::vector<Chunk>& out) {
  const int64_t n = std::max<int64_t>(1, std::min(parts, in.size / kMinChunkBytes));
  int64_t begin = 0;
  for (int64_t k = 1; k <= n && begin < in.size; ++k) {
    int64_t end = k == n ? in.size : std::max(begin, in.size / n * k);
    if (end < in.size) {
      const void* nl = std::memchr(in.data + end, '\n', size_t(in.size - end));
      end = nl ? static_cast<const char*>(nl) - in.data + 1 : in.size;
    }
    Chunk c;
    c.input = &in;
    c.begin = begin;
    c.end = end;
    out.push_back(std::move(c));
    begin = end;
  }
}

/// Splits a JSON array into chunks of whole records (cut at top-level commas, about `parts`
/// of them) by a pass that follows only strings and brackets. False when that pass finds the
/// document broken: the caller then parses it as one chunk, which names the error.
bool split_array(const JsonInput& in, int64_t parts, std::vector<Chunk>& out) {
  const char* d = in.data;
  const int64_t n = in.size;
  int64_t p = 0;
  auto ws = [&] {
    while (p < n && (d[p] == ' ' || d[p] == '\t' || d[p] == '\n' || d[p] == '\r')) ++p;
  };
  ws();
  if (p >= n || d[p] != '[') return false;
  const int64_t body = ++p;
  const int64_t target = std::max(kMinChunkBytes, (n - body) / std::max<int64_t>(parts, 1));
  std::vector<std::pair<int64_t, int64_t>> spans;
  int64_t depth = 0, begin = body;
  for (; p < n; ++p) {
    const char c = d[p];
    if (c == '"') {
      for (++p; p < n && d[p] != '"'; ++p)
        if (d[p] == '\\') ++p;
      if (p >= n) return false;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      if (depth == 0) break;
      --depth;
    } else if (c == ',' && depth == 0 && p - begin >= target) {
      spans.emplace_back(begin, p);
      begin = p + 1;
    }
  }
  if (p >= n || d[p] != ']') return false;
  spans.emplace_back(begin, p);
  ++p;
  ws();
  if (p != n) return false;
  for (const auto& [b, e] : spans) {
    Chunk c;
    c.input = &in;
    c.begin = b;
    c.end = e;
    c.elements = true;
    c.sole = spans.size() == 1;
    out.push_back(std::move(c));
  }
  return true;
}

/// The dtype a column's value kinds join to.
TypeId type_of_kinds(uint8_t kinds) {
  const uint8_t b = 1u << unsigned(Kind::Bool), i = 1u << unsigned(Kind::Int), f = 1u << unsigned(Kind::Float);
  if (kinds == b) return TypeId::Bool;
  if (kinds == i) return TypeId::Int64;
  if (kinds != 0 && (kinds & ~(i | f)) == 0) return TypeId::Float64;
  return TypeId::Utf8;  // strings, mixes with strings or booleans, and only nulls
}

double float_of(std::string_view text) {
  double d;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), d);
  if (ec == std::errc()) return d;
  return std::strtod(std::string(text).c_str(), nullptr);  // out of range: +-inf or +-0
}

/// Converts one non-null cell into slot `row` of a fixed-width values buffer.
struct CellWriter {
  template <TypeId T>
  bool operator()(const Cell& c, const Chunk& ch, uint8_t* values, int64_t row) const {
    using S = storage_t<T>;
    if constexpr (!std::is_arithmetic_v<S>) {
      return false;
    } else {
      S* dst = reinterpret_cast<S*>(values) + row;
      if constexpr (T == TypeId::Bool) {
        return c.kind == Kind::Bool && (*dst = S(c.v), true);
      } else if constexpr (T == TypeId::Float32 || T == TypeId::Float64) {
        if (c.kind == Kind::Int) return *dst = S(c.v), true;
        return c.kind == Kind::Float && (*dst = S(float_of(ch.text(c))), true);
      } else if constexpr (T == TypeId::Date32) {
        return c.kind == Kind::Str && csv::parse_date32(ch.text(c), *dst);
      } else if constexpr (is_timestamp(T)) {
        int64_t v;
        return c.kind == Kind::Str && csv::parse_instant(ch.text(c), T, v) && (*dst = v, true);
      } else if constexpr (is_duration(T)) {
        if (c.kind == Kind::Int) return *dst = S(c.v), true;  // a bare count of the unit
        const std::string_view t = c.kind == Kind::Str ? ch.text(c) : std::string_view();
        return c.kind == Kind::Str && parse_duration_iso(t.data(), int64_t(t.size()), ticks_per_second(T), *dst);
      } else {
        if constexpr (std::is_same_v<S, uint64_t>) {
          // Integers past int64 parse as floats; uint64 takes them up to 2^64-1.
          if (c.kind == Kind::Float) {
            const std::string_view t = ch.text(c);
            auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), *dst);
            return ec == std::errc() && p == t.data() + t.size();
          }
        }
        if (c.kind != Kind::Int) return false;
        if constexpr (std::is_unsigned_v<S>) {
          if (c.v < 0 || uint64_t(c.v) > uint64_t(std::numeric_limits<S>::max())) return false;
        } else {
          if (c.v < int64_t(std::numeric_limits<S>::min()) || c.v > int64_t(std::numeric_limits<S>::max())) return false;
        }
        return *dst = S(c.v), true;
      }
    }
  }
};

/// A value's text for messages (std::string) and for utf8 columns (HostString).
template <typename S>
void append_text(S& out, const Cell& c, const Chunk& ch) {
  switch (c.kind) {
    case Kind::Str:
    case Kind::Float: out.append(ch.text(c)); break;
    case Kind::Int: io::put_int(out, c.v); break;
    case Kind::Bool: out.append(c.v ? "true" : "false"); break;
    case Kind::Null: break;
  }
}

struct OutColumn {
  std::string name;
  TypeId type = TypeId::Utf8;
  bool explicit_type = false;
  uint8_t kinds = 0;
  std::vector<int32_t> source;  // per chunk: its column (-1: none)
};

/// Builds one column from every chunk's cells (host memory).
ColumnPtr build(const OutColumn& oc, const std::vector<Chunk>& chunks, int64_t nrows) {
  HostVector<uint8_t> valid(size_t((nrows + 7) / 8), 0);
  int64_t nulls = 0;
  const bool str = is_string(oc.type);
  BufferPtr values;
  HostVector<int64_t> offsets;
  HostString bytes;
  if (str) offsets.assign(size_t(nrows + 1), 0);
  else values = Buffer::allocate(cpu_device(), size_t(nrows) * size_t(value_width(oc.type)));
  const int64_t width = value_width(oc.type);
  int64_t row = 0;
  for (size_t k = 0; k < chunks.size(); ++k) {
    const Chunk& ch = chunks[k];
    const ChunkColumn* cc = oc.source[k] >= 0 ? &ch.cols[size_t(oc.source[k])] : nullptr;
    for (int64_t r = 0; r < ch.rows; ++r, ++row) {
      const Cell* cell = cc && r < int64_t(cc->cells.size()) ? &cc->cells[size_t(r)] : nullptr;
      const bool null = cell == nullptr || cell->kind == Kind::Null;
      if (null) ++nulls;
      if (str) {
        if (!null) append_text(bytes, *cell, ch);
        offsets[size_t(row + 1)] = int64_t(bytes.size());
      } else if (null) {
        std::memset(values->data() + row * width, 0, size_t(width));
      } else if (!type_dispatch(oc.type, CellWriter{}, *cell, ch, values->data(), row)) {
        std::string shown;
        append_text(shown, *cell, ch);
        if (cell->kind == Kind::Str) shown = "\"" + shown + "\"";
        const std::string where = ch.input->label.empty() ? std::string() : ch.input->label + ": ";
        GPUDF_FAIL(JsonParse, where + "line " + std::to_string(line_of(ch.input->data, ch.record_pos[size_t(r)])) +
                                  ", column \"" + oc.name + "\": " + shown + " is not a valid " +
                                  std::string(type_name(oc.type)));
      }
      if (!null) valid[size_t(row >> 3)] |= uint8_t(1u << (row & 7));
    }
  }
  BufferPtr validity;
  if (nulls > 0) {
    validity = Buffer::allocate(cpu_device(), valid.size());
    if (!valid.empty()) std::memcpy(validity->data(), valid.data(), valid.size());
  }
  if (!str) return std::make_shared<Column>(cpu_device(), oc.type, nrows, values, nullptr, validity, nulls);
  const bool large = oc.type == TypeId::LargeUtf8 || bytes.size() > size_t(std::numeric_limits<int32_t>::max());
  BufferPtr offs = Buffer::allocate(cpu_device(), size_t(nrows + 1) * (large ? 8 : 4));
  if (large) std::memcpy(offs->data(), offsets.data(), offsets.size() * 8);
  else
    for (int64_t r = 0; r <= nrows; ++r) reinterpret_cast<int32_t*>(offs->data())[r] = int32_t(offsets[size_t(r)]);
  BufferPtr data = Buffer::allocate(cpu_device(), bytes.size());
  if (!bytes.empty()) std::memcpy(data->data(), bytes.data(), bytes.size());
  return std::make_shared<Column>(cpu_device(), large ? TypeId::LargeUtf8 : TypeId::Utf8, nrows, data, offs, validity, nulls);
}

/// Rethrows the first failure in task order (the earliest position), if any.
void rethrow_first(const std::vector<std::exception_ptr>& errors) {
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace

JsonResult read_json(const std::vector<JsonInput>& given, const JsonOptions& o, Device& target) {
  // A leading UTF-8 byte order mark is skipped (as readCSV does).
  std::vector<JsonInput> inputs(given);
  for (JsonInput& in : inputs) {
    if (in.size >= 3 && std::memcmp(in.data, "\xEF\xBB\xBF", 3) == 0) in.data += 3, in.size -= 3;
  }
  std::unordered_set<std::string> selected(o.select_names.begin(), o.select_names.end());
  const bool select = !o.select_names.empty() || o.exact_schema;

  // Chunks and their parse.
  std::vector<Chunk> chunks;
  const int64_t parts = int64_t(cpu_pool().size()) * 2;
  for (const JsonInput& in : inputs) {
    if (o.ndjson && o.n_rows < 0) {
      split_ndjson(in, parts, chunks);
    } else if (o.n_rows < 0 && in.size >= 2 * kMinChunkBytes && split_array(in, parts, chunks)) {
      // cut into chunks of whole records
    } else {
      Chunk c;
      c.input = &in;
      c.end = in.size;
      chunks.push_back(std::move(c));
    }
  }
  std::vector<std::exception_ptr> errors(chunks.size());
  auto parse = [&](size_t k, int64_t limit) {
    try {
      ChunkParser(chunks[k], o, select ? &selected : nullptr).run(limit);
    } catch (...) {
      errors[k] = std::current_exception();
    }
  };
  if (o.n_rows >= 0) {
    // Only as many records as asked for: the inputs in order, on this thread.
    int64_t left = o.n_rows;
    for (size_t k = 0; k < chunks.size() && left > 0; ++k) {
      parse(k, left);
      if (errors[k]) break;
      left -= chunks[k].rows;
    }
  } else {
    cpu_pool().parallel_for(int64_t(chunks.size()), 1, [&](int64_t a, int64_t b) {
      for (int64_t k = a; k < b; ++k) parse(size_t(k), -1);
    });
  }
  rethrow_first(errors);

  // The unified schema: columns by first appearance (or as selected), dtypes joined.
  std::vector<OutColumn> all;
  std::unordered_map<std::string, size_t> by_name;
  int64_t nrows = 0;
  for (size_t k = 0; k < chunks.size(); ++k) {
    nrows += chunks[k].rows;
    for (size_t j = 0; j < chunks[k].cols.size(); ++j) {
      const ChunkColumn& cc = chunks[k].cols[j];
      auto [it, fresh] = by_name.emplace(cc.name, all.size());
      if (fresh) all.push_back(OutColumn{cc.name, TypeId::Utf8, false, 0, std::vector<int32_t>(chunks.size(), -1)});
      OutColumn& oc = all[it->second];
      oc.kinds |= cc.kinds;
      oc.source[k] = int32_t(j);
    }
  }
  std::vector<OutColumn> cols;
  if (o.select_names.empty()) {
    cols = std::move(all);
  } else {
    for (const std::string& name : o.select_names) {
      auto it = by_name.find(name);
      if (it != by_name.end()) {
        cols.push_back(all[it->second]);
      } else {
        GPUDF_EXPECTS(o.exact_schema, ColumnNotFound, "column \"" + name + "\" is in no JSON record");
        cols.push_back(OutColumn{name, TypeId::Utf8, false, 0, std::vector<int32_t>(chunks.size(), -1)});
      }
    }
  }
  for (OutColumn& c : cols) c.type = type_of_kinds(c.kinds);
  for (const auto& [name, type] : o.dtypes_by_name) {
    auto it = std::find_if(cols.begin(), cols.end(), [&](const OutColumn& c) { return c.name == name; });
    if (it == cols.end()) {
      // A dtype for a column left out by `columns` applies to nothing; without `columns`, a
      // name that no record has is a mistake.
      GPUDF_EXPECTS(select, ColumnNotFound, "dtypes names column \"" + name + "\", which is in no JSON record");
      continue;
    }
    it->type = type;
    it->explicit_type = true;
  }

  // Columns built in parallel, then handed to the target device.
  std::vector<ColumnPtr> host(cols.size());
  std::vector<std::exception_ptr> failures(cols.size());
  cpu_pool().parallel_for(int64_t(cols.size()), 1, [&](int64_t a, int64_t b) {
    for (int64_t j = a; j < b; ++j) {
      try {
        host[size_t(j)] = build(cols[size_t(j)], chunks, nrows);
      } catch (...) {
        failures[size_t(j)] = std::current_exception();
      }
    }
  });
  rethrow_first(failures);
  std::vector<Chunk>().swap(chunks);
  JsonResult result;
  for (size_t j = 0; j < cols.size(); ++j) {
    result.names.push_back(cols[j].name);
    result.columns.push_back(copy_to_device(host[j], target));
    host[j].reset();
  }
  return result;
}

}  // namespace gpudf::json
