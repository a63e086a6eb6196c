// TPC-H text (specification clause 4.2.2.10 and 4.2.2.13): a pool of pseudo-text made by the
// grammar from the spec's weighted word lists, and text columns as substrings of it: a length
// drawn in the column's [min, max], at a random offset. The pool is made once per generation
// from a fixed random stream into a SharedArrayBuffer that every worker reads.
//
// Deviation from the spec: the pool is 16 MiB, not 300 MB (it is rebuilt on every run; a
// comment of at most 198 characters has ~16.7 million start positions to come from, so
// comments stay varied at SF 1..100, but they repeat more often than dbgen's at large SF).
import { Rng } from '../../gen/prng.mjs';
import {
  ADJECTIVES, ADVERBS, AUXILIARIES, NOUNS, NOUN_PHRASES, PREPOSITIONS, SENTENCES, TERMINATORS, VERBS, VERB_PHRASES,
} from './dists.mjs';

export const POOL_BYTES = 1 << 24;
const ascii = (s) => Uint8Array.from(s, (c) => c.charCodeAt(0));

/** A weighted list: pick(rng) returns an entry with probability weight / total. */
export class Picker {
  constructor(entries, map = (w) => w) {
    this.items = entries.map(([w]) => map(w));
    this.cum = new Int32Array(entries.length);
    let t = 0;
    entries.forEach(([, n], i) => { t += n; this.cum[i] = t; });
    this.total = t;
  }

  pick(rng) {
    const r = rng.int(1, this.total);
    let i = 0;
    while (this.cum[i] < r) i++;
    return this.items[i];
  }
}

/** Writes the grammar's sentences into a byte array of exactly `bytes` bytes. */
export function buildTextPool(seed, stream, bytes = POOL_BYTES) {
  const rng = new Rng(seed, stream);
  const pick = (list) => new Picker(list, ascii);
  const nouns = pick(NOUNS), verbs = pick(VERBS), adjs = pick(ADJECTIVES), advs = pick(ADVERBS);
  const preps = pick(PREPOSITIONS), auxs = pick(AUXILIARIES), terms = pick(TERMINATORS);
  const forms = new Picker(SENTENCES, (f) => f.split(' '));
  const nps = new Picker(NOUN_PHRASES, (f) => f.split(' '));
  const vps = new Picker(VERB_PHRASES, (f) => f.split(' '));
  const out = new Uint8Array(new SharedArrayBuffer(bytes));
  let n = 0;
  const put = (w) => { for (let k = 0; k < w.length && n < bytes; k++) out[n++] = w[k]; };
  const space = () => { if (n < bytes) out[n++] = 32; };
  const THE = ascii('the'), COMMA = ascii(',');
  const nounPhrase = () => {
    const parts = nps.pick(rng);
    parts.forEach((p, i) => {
      if (i > 0) space();
      if (p === 'N') put(nouns.pick(rng));
      else if (p === 'D') put(advs.pick(rng));
      else { put(adjs.pick(rng)); if (p === 'J,') put(COMMA); }
    });
  };
  const verbPhrase = () => {
    vps.pick(rng).forEach((p, i) => {
      if (i > 0) space();
      put(p === 'V' ? verbs.pick(rng) : p === 'X' ? auxs.pick(rng) : advs.pick(rng));
    });
  };
  while (n < bytes) {
    forms.pick(rng).forEach((p, i) => {
      if (p === 'T') { put(terms.pick(rng)); return; }
      if (i > 0) space();
      if (p === 'N') nounPhrase();
      else if (p === 'V') verbPhrase();
      else { put(preps.pick(rng)); space(); put(THE); space(); nounPhrase(); }
    });
    space();
  }
  return out;
}
