#include "io/csv_rows.hpp"

#include <algorithm>
#include <cstring>

#include "core/error.hpp"
#include "core/host_vector.hpp"
#include "core/thread_pool.hpp"

namespace gpudf::csv {
namespace {

constexpr int64_t kMinChunk = int64_t{1} << 20;

/// Start of the first row after the BOM and `skip` raw lines.
int64_t body_start(const char* data, int64_t size, int64_t skip) {
  int64_t pos = 0;
  if (size >= 3 && static_cast<unsigned char>(data[0]) == 0xEF &&
      static_cast<unsigned char>(data[1]) == 0xBB && static_cast<unsigned char>(data[2]) == 0xBF)
    pos = 3;
  for (int64_t i = 0; i < skip && pos < size; ++i) {
    const void* nl = std::memchr(data + pos, '\n', static_cast<size_t>(size - pos));
    pos = nl ? static_cast<const char*>(nl) - data + 1 : size;
  }
  return pos;
}

/// Position of the first `ch` in data[p, e), or e. Fields are mostly short: a plain loop over
/// the first bytes, memchr beyond.
inline int64_t find_byte(const char* data, int64_t p, int64_t e, char ch) {
  const int64_t stop = std::min(e, p + 16);
  for (; p < stop; ++p)
    if (data[p] == ch) return p;
  if (p == e) return e;
  const void* hit = std::memchr(data + p, ch, size_t(e - p));
  return hit ? static_cast<const char*>(hit) - data : e;
}

/// Where the unterminated quoted field that runs to the end of the data begins.
int64_t open_quote_position(const char* data, int64_t from, int64_t size, char quote) {
  bool inside = false;
  int64_t opened = from;
  for (int64_t i = from; i < size; ++i) {
    if (data[i] != quote) continue;
    if (!inside) opened = i;
    inside = !inside;
  }
  return opened;
}

}  // namespace

int64_t line_number(const char* data, int64_t pos) {
  return 1 + std::count(data, data + pos, '\n');
}

Rows split_rows(const char* data, int64_t size, const CsvOptions& options) {
  const int64_t start = body_start(data, size, options.skip_rows);
  const int64_t body = size - start;
  const char quote = options.quote;
  ThreadPool& pool = cpu_pool();
  const int64_t chunk = std::max(kMinChunk, body / (int64_t(pool.size()) * 4) + 1);
  const int64_t nchunks = body > 0 ? (body + chunk - 1) / chunk : 0;

  // Pass 1: quotes per chunk, so every chunk knows whether it starts inside quotes (parity) and
  // whether it has any quote at all (then newlines are found with memchr).
  std::vector<int64_t> quotes(static_cast<size_t>(nchunks), 0);
  if (quote) {
    pool.parallel_for(nchunks, 1, [&](int64_t c0, int64_t c1) {
      for (int64_t c = c0; c < c1; ++c) {
        const char* b = data + start + c * chunk;
        const char* e = data + std::min(size, start + (c + 1) * chunk);
        quotes[size_t(c)] = std::count(b, e, quote);
      }
    });
  }
  std::vector<uint8_t> inside(static_cast<size_t>(nchunks), 0);
  uint8_t state = 0;
  for (int64_t c = 0; c < nchunks; ++c) {
    inside[size_t(c)] = state;
    state ^= uint8_t(quotes[size_t(c)] & 1);
  }
  if (state) {
    int64_t at = open_quote_position(data, start, size, quote);
    GPUDF_FAIL(CsvParse, "unterminated quoted field starting on line " + std::to_string(line_number(data, at)));
  }

  // Pass 2: newlines outside quotes, per chunk.
  std::vector<HostVector<int64_t>> newlines(static_cast<size_t>(nchunks));
  pool.parallel_for(nchunks, 1, [&](int64_t c0, int64_t c1) {
    for (int64_t c = c0; c < c1; ++c) {
      int64_t b = start + c * chunk;
      int64_t e = std::min(size, b + chunk);
      auto& out = newlines[size_t(c)];
      out.reserve(size_t((e - b) / 32));
      if (quotes[size_t(c)] == 0 && !inside[size_t(c)]) {
        for (const char* p = data + b; p < data + e;) {
          const void* nl = std::memchr(p, '\n', size_t(data + e - p));
          if (!nl) break;
          out.push_back(static_cast<const char*>(nl) - data);
          p = static_cast<const char*>(nl) + 1;
        }
        continue;
      }
      bool in = inside[size_t(c)] != 0;
      for (int64_t i = b; i < e; ++i) {
        char ch = data[i];
        if (ch == quote && quote) in = !in;
        else if (ch == '\n' && !in) out.push_back(i);
      }
    }
  });

  // Pass 3: rows per chunk in parallel (a chunk's first row starts after the last newline of an
  // earlier chunk), empty and comment lines dropped, then concatenated.
  // row_start[c]: after the last newline of chunks before c; tail_start: after the last one.
  std::vector<int64_t> row_start(static_cast<size_t>(nchunks), start);
  int64_t tail_start = start;
  for (int64_t c = 0; c < nchunks; ++c) {
    row_start[size_t(c)] = tail_start;
    if (!newlines[size_t(c)].empty()) tail_start = newlines[size_t(c)].back() + 1;
  }
  const std::string& comment = options.comment_prefix;
  auto keep = [&](int64_t b, int64_t& e) {
    if (e > b && data[e - 1] == '\r') --e;
    if (e <= b) return false;  // empty line
    return comment.empty() || e - b < int64_t(comment.size()) ||
           std::memcmp(data + b, comment.data(), comment.size()) != 0;
  };
  // Each chunk's newlines become its rows' ends, in place; begins go beside them.
  std::vector<HostVector<int64_t>> begins(static_cast<size_t>(nchunks));
  pool.parallel_for(nchunks, 1, [&](int64_t c0, int64_t c1) {
    for (int64_t c = c0; c < c1; ++c) {
      auto& ends = newlines[size_t(c)];
      auto& bs = begins[size_t(c)];
      bs.reserve(ends.size());
      int64_t b = row_start[size_t(c)];
      size_t k = 0;
      for (int64_t nl : ends) {
        int64_t e = nl;
        if (keep(b, e)) {
          bs.push_back(b);
          ends[k++] = e;
        }
        b = nl + 1;
      }
      ends.resize(k);
    }
  });
  Rows rows;
  std::vector<int64_t> at(static_cast<size_t>(nchunks) + 1, 0);
  for (int64_t c = 0; c < nchunks; ++c) at[size_t(c) + 1] = at[size_t(c)] + int64_t(begins[size_t(c)].size());
  const int64_t total = at[size_t(nchunks)];
  rows.begin.resize(size_t(total));
  rows.end.resize(size_t(total));
  pool.parallel_for(nchunks, 1, [&](int64_t c0, int64_t c1) {
    for (int64_t c = c0; c < c1; ++c) {
      std::copy(begins[size_t(c)].begin(), begins[size_t(c)].end(), rows.begin.begin() + at[size_t(c)]);
      std::copy(newlines[size_t(c)].begin(), newlines[size_t(c)].end(), rows.end.begin() + at[size_t(c)]);
      HostVector<int64_t>().swap(begins[size_t(c)]);
      HostVector<int64_t>().swap(newlines[size_t(c)]);
    }
  });
  // The last row, when the data does not end with a newline.
  int64_t e = size;
  if (tail_start < size && keep(tail_start, e)) {
    rows.begin.push_back(tail_start);
    rows.end.push_back(e);
  }
  return rows;
}

bool split_fields(const char* data, int64_t b, int64_t e, const CsvOptions& options,
                  std::vector<Field>& out, std::string& scratch, int64_t& bad) {
  out.clear();
  scratch.clear();
  scratch.reserve(static_cast<size_t>(e - b));
  const char sep = options.sep;
  const char quote = options.quote;
  int64_t p = b;
  for (;;) {
    if (quote && p < e && data[p] == quote) {
      int64_t q = p + 1;
      int64_t content = q;
      bool escaped = false;
      for (;;) {
        const void* hit = q < e ? std::memchr(data + q, quote, size_t(e - q)) : nullptr;
        if (!hit) {
          bad = p;
          return false;
        }
        q = static_cast<const char*>(hit) - data;
        if (q + 1 < e && data[q + 1] == quote) {
          escaped = true;
          q += 2;
          continue;
        }
        break;
      }
      std::string_view text(data + content, size_t(q - content));
      if (escaped) {
        size_t at = scratch.size();
        for (size_t i = 0; i < text.size(); ++i) {
          scratch.push_back(text[i]);
          if (text[i] == quote) ++i;  // keep one of each doubled quote
        }
        text = std::string_view(scratch.data() + at, scratch.size() - at);
      }
      out.push_back({text, true});
      p = q + 1;
      if (p == e) return true;
      if (data[p] != sep) {
        bad = p;
        return false;
      }
      ++p;
      if (p == e) {
        out.push_back({std::string_view(), false});
        return true;
      }
      continue;
    }
    const int64_t f = find_byte(data, p, e, sep);
    out.push_back({std::string_view(data + p, size_t(f - p)), false});
    if (f == e) return true;
    p = f + 1;
    if (p == e) {
      out.push_back({std::string_view(), false});
      return true;
    }
  }
}

}  // namespace gpudf::csv
