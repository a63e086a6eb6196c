// A reader's source as the bindings take it (a path, or a Buffer / typed array's bytes), shared
// by the text readers (readCSV, readJSON / readNDJSON).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bindings/napi.hpp"
#include "core/error.hpp"
#include "io/csv_reader.hpp"

namespace gpudf::js {

/// The bytes to parse: a file read on the worker thread, or a Buffer's bytes. A worker thread
/// reads its own copy (`owned`): JS may detach or transfer the buffer while the parse runs,
/// which frees its memory whatever reference is held. The synchronous read parses in place.
struct Source {
  bool is_path = false;
  std::string path;
  std::vector<char> owned;
  const char* data = nullptr;
  int64_t size = 0;
  std::unique_ptr<csv::MappedFile> mapped;

  /// `fn` names the reader in the message for a source of the wrong kind.
  Source(const Napi::Value& v, bool copy, const char* fn) {
    if (v.IsString()) {
      is_path = true;
      path = v.As<Napi::String>().Utf8Value();
      GPUDF_EXPECTS(!path.empty(), Io, "cannot read \"\": an empty path");
      return;
    }
    GPUDF_EXPECTS(v.IsTypedArray(), InvalidArgument, std::string(fn) + " expects a path or a Buffer");
    const TypedBytes bytes = typed_array_bytes(v, "a reader's source");
    data = reinterpret_cast<const char*>(bytes.data);
    size = bytes.size;
    if (copy) {
      owned.assign(data, data + size);
      data = owned.data();
    }
  }
  /// Loads the file when the source is a path (no JS access: safe on a worker thread).
  void load() {
    if (!is_path) return;
    mapped = std::make_unique<csv::MappedFile>(path);
    data = mapped->data();
    size = mapped->size();
  }
  /// Lets the parser drop the pages of a mapped file it has parsed (nothing for a Buffer).
  csv::ReleaseFn release() const {
    if (!mapped) return {};
    const csv::MappedFile* m = mapped.get();
    return [m](int64_t b, int64_t e) { m->release(b, e); };
  }
};

}  // namespace gpudf::js
