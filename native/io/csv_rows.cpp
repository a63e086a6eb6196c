#include "io/csv_rows.hpp"

#include <algorithm>
#include <cstring>

#include "core/error.hpp"
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

  // Pass 1: quote parity per chunk, so every chunk knows whether it starts inside quotes.
  std::vector<uint8_t> odd(static_cast<size_t>(nchunks), 0);
  if (quote) {
    pool.parallel_for(nchunks, 1, [&](int64_t c0, int64_t c1) {
      for (int64_t c = c0; c < c1; ++c) {
        const char* b = data + start + c * chunk;
        const char* e = data + std::min(size, start + (c + 1) * chunk);
        odd[size_t(c)] = static_cast<uint8_t>(std::count(b, e, quote) & 1);
      }
    });
  }
  std::vector<uint8_t> inside(static_cast<size_t>(nchunks), 0);
  uint8_t state = 0;
  for (int64_t c = 0; c < nchunks; ++c) {
    inside[size_t(c)] = state;
    state ^= odd[size_t(c)];
  }
  if (state) {
    int64_t at = open_quote_position(data, start, size, quote);
    GPUDF_FAIL(CsvParse, "unterminated quoted field starting on line " + std::to_string(line_number(data, at)));
  }

  // Pass 2: newlines outside quotes, per chunk.
  std::vector<std::vector<int64_t>> newlines(static_cast<size_t>(nchunks));
  pool.parallel_for(nchunks, 1, [&](int64_t c0, int64_t c1) {
    for (int64_t c = c0; c < c1; ++c) {
      int64_t b = start + c * chunk;
      int64_t e = std::min(size, b + chunk);
      bool in = inside[size_t(c)] != 0;
      auto& out = newlines[size_t(c)];
      for (int64_t i = b; i < e; ++i) {
        char ch = data[i];
        if (ch == quote && quote) in = !in;
        else if (ch == '\n' && !in) out.push_back(i);
      }
    }
  });

  Rows rows;
  int64_t total = 1;
  for (auto& v : newlines) total += static_cast<int64_t>(v.size());
  rows.begin.reserve(size_t(total));
  rows.end.reserve(size_t(total));
  const std::string& comment = options.comment_prefix;
  auto add = [&](int64_t b, int64_t e) {
    if (e > b && data[e - 1] == '\r') --e;
    if (e <= b) return;  // empty line
    if (!comment.empty() && e - b >= int64_t(comment.size()) &&
        std::memcmp(data + b, comment.data(), comment.size()) == 0)
      return;
    rows.begin.push_back(b);
    rows.end.push_back(e);
  };
  int64_t row_start = start;
  for (auto& v : newlines) {
    for (int64_t nl : v) {
      add(row_start, nl);
      row_start = nl + 1;
    }
    std::vector<int64_t>().swap(v);
  }
  add(row_start, size);
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
    const void* hit = std::memchr(data + p, sep, size_t(e - p));
    int64_t f = hit ? static_cast<const char*>(hit) - data : e;
    out.push_back({std::string_view(data + p, size_t(f - p)), false});
    if (!hit) return true;
    p = f + 1;
    if (p == e) {
      out.push_back({std::string_view(), false});
      return true;
    }
  }
}

}  // namespace gpudf::csv
