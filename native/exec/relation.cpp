#include "exec/relation.hpp"

#include <algorithm>
#include <map>

#include "core/error.hpp"
#include "ops/gather/gather.hpp"

namespace gpudf::exec {

ColumnPtr Cell::values() const {
  if (!map_) return base_;
  std::lock_guard<std::mutex> lock(mutex_);
  if (!values_) values_ = gather_or_null(base_->view(), map_->rows->view(), map_->has_missing);
  return values_;
}

CellPtr make_cell(ColumnPtr base) { return std::make_shared<Cell>(std::move(base), nullptr); }

size_t Relation::index_of(const std::string& name) const {
  auto it = std::find(names_.begin(), names_.end(), name);
  if (it == names_.end()) {
    std::string list;
    for (const std::string& n : names_) list += (list.empty() ? "" : ", ") + n;
    GPUDF_FAIL(ColumnNotFound, "column \"" + name + "\" not found; columns are: " + list);
  }
  return size_t(it - names_.begin());
}

void Relation::add(std::string name, CellPtr cell) {
  GPUDF_EXPECTS(cell->size() == height_, Internal,
                "column \"" + name + "\" has " + std::to_string(cell->size()) + " rows; the relation " +
                    std::to_string(height_));
  names_.push_back(std::move(name));
  cells_.push_back(std::move(cell));
}

Relation Relation::take(const ColumnPtr& rows, TakeRows kind) const {
  Relation out(*device_, rows->size());
  const bool has_missing = kind == TakeRows::WithMissing;
  const bool ascending = kind == TakeRows::Ascending;
  auto direct = std::make_shared<RowMap>(RowMap{rows, has_missing, ascending, height_});
  std::map<const RowMap*, RowMapPtr> composed;
  for (size_t i = 0; i < cells_.size(); ++i) {
    const Cell& c = *cells_[i];
    RowMapPtr map;
    ColumnPtr base = c.base();
    if (!c.map()) {
      map = direct;
    } else {
      auto [it, fresh] = composed.try_emplace(c.map().get());
      if (fresh) {
        const RowMap& m = *c.map();
        it->second = std::make_shared<RowMap>(RowMap{compose_rows(m.rows->view(), rows->view()), m.has_missing || has_missing,
                                                     m.ascending && ascending, m.base_rows});
      }
      map = it->second;
    }
    out.add(names_[i], std::make_shared<Cell>(std::move(base), std::move(map)));
  }
  return out;
}

Relation Relation::slice(int64_t offset, int64_t length) const {
  offset = std::clamp<int64_t>(offset, 0, height_);
  length = std::clamp<int64_t>(length, 0, height_ - offset);
  if (offset == 0 && length == height_) return *this;
  Relation out(*device_, length);
  std::map<const RowMap*, RowMapPtr> sliced;
  for (size_t i = 0; i < cells_.size(); ++i) {
    const Cell& c = *cells_[i];
    if (!c.map()) {
      out.add(names_[i], make_cell(c.base()->slice(offset, length)));
      continue;
    }
    auto [it, fresh] = sliced.try_emplace(c.map().get());
    if (fresh) {
      const RowMap& m = *c.map();
      it->second = std::make_shared<RowMap>(RowMap{m.rows->slice(offset, length), m.has_missing, m.ascending, m.base_rows});
    }
    out.add(names_[i], std::make_shared<Cell>(c.base(), it->second));
  }
  return out;
}

std::vector<ColumnPtr> Relation::materialise() const {
  std::vector<ColumnPtr> out;
  out.reserve(cells_.size());
  for (const CellPtr& c : cells_) out.push_back(c->values());
  return out;
}

}  // namespace gpudf::exec
