// Cross-engine checksum comparison. The reference for a question is the first engine, in
// REFERENCE_ORDER, that answered it; every other answer must match it: row counts and integer
// sums exactly, floating sums to a relative 1e-6 (engines sum in different orders).
import { compareAnswers } from '../tpch/answers.mjs';

export const REFERENCE_ORDER = ['duckdb', 'polars', 'arquero', 'danfo', 'gpudf', 'gpudf-lazy'];
const REL_TOL = 1e-6;

function close(a, b) {
  if (a === null || b === null) return a === b;
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b);
  return Math.abs(a - b) <= REL_TOL * Math.max(1, Math.abs(a), Math.abs(b));
}

/**
 * Marks each ok result of `byEngine[engine].questions[q]` with `correct` (true/false) and
 * `reference`; returns a list of mismatch descriptions.
 */
export function compareChecksums(byEngine, questionIds) {
  const mismatches = [];
  for (const q of questionIds) {
    const ok = REFERENCE_ORDER.filter((e) => byEngine[e]?.questions[q]?.status === 'ok');
    if (ok.length === 0) continue;
    const ref = byEngine[ok[0]].questions[q];
    for (const e of ok) {
      const r = byEngine[e].questions[q];
      const rowsMatch = ref.rows === null || r.rows === null || ref.rows === r.rows;
      const same = rowsMatch && r.chk.length === ref.chk.length && r.chk.every((v, i) => close(v, ref.chk[i]));
      r.correct = same;
      r.reference = ok[0];
      if (!same) mismatches.push({ q, engine: e, reference: ok[0], got: { rows: r.rows, chk: r.chk }, expected: { rows: ref.rows, chk: ref.chk } });
    }
  }
  return mismatches;
}

/**
 * Whole-answer comparison (suites whose engines return `answer`: tpch): each ok answer against
 * the reference engine's with bench/tpch/answers.mjs rules (`order`: a question's ORDER BY
 * columns). Marks `correct` and `reference`, then drops the answers (the results file keeps
 * row counts, not rows); returns the mismatches, each with what differs.
 */
export function compareWholeAnswers(byEngine, questionIds, order) {
  const mismatches = [];
  for (const q of questionIds) {
    const ok = REFERENCE_ORDER.filter((e) => byEngine[e]?.questions[q]?.status === 'ok');
    if (ok.length === 0) continue;
    const ref = byEngine[ok[0]].questions[q];
    for (const e of ok) {
      const r = byEngine[e].questions[q];
      const diff = compareAnswers(r.answer, ref.answer, order[q]);
      r.correct = diff === null;
      r.reference = ok[0];
      if (diff !== null) mismatches.push({ q, engine: e, reference: ok[0], diff });
    }
  }
  for (const e of Object.values(byEngine)) for (const r of Object.values(e.questions)) delete r.answer;
  return mismatches;
}
