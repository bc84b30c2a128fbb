// Writes the answers' records (interactions.js) into cmi.interactions, for
// either version: each record at a new index, from the count the LMS holds
// (read once, at the first record: an LMS hands back the records of
// earlier sessions), at most MAX_INTERACTIONS in all. A record is
//   { id, type, event, answer, latency (seconds), at (a Date) }
// and written in the order the versions ask (id and type before the
// rest, 2004's learner_response after its type).
//
// Records are the teacher's, not the learner's answers: an LMS that keeps
// none (1.2 lets it: error 401), refuses one of its values or throws is
// written no more records this session, and nothing is said to the learner
// (their answers and score are stored all the same).
import {
  MAX_INTERACTIONS, interactionResult, responseText, latencyText, timeText,
} from './interactions.js';

// version: '1.2' or '2004'; count(): the LMS's cmi.interactions._count, as
// text; write(element, value): true when the LMS took it.
export function createInteractionWriter({ version, count, write }) {
  let next = null;
  let working = true;
  const fields = (record) => {
    const response = record.event === 'revealed' ? null : responseText(record.type, record.answer, version);
    return [
      ['id', record.id],
      ['type', record.type],
      [version === '1.2' ? 'time' : 'timestamp', timeText(record.at, version)],
      [version === '1.2' ? 'student_response' : 'learner_response', response],
      ['result', interactionResult(record.event, version)],
      ['latency', latencyText(record.latency, version)],
    ];
  };
  function writeOne(record) {
    if (next === null) {
      const held = String(count()).trim();
      next = /^\d{1,9}$/.test(held) ? Number(held) : 0;
    }
    if (next >= MAX_INTERACTIONS) return;
    const index = next;
    next += 1;
    for (const [field, value] of fields(record)) {
      if (value === null) continue;
      if (!write(`cmi.interactions.${index}.${field}`, String(value))) {
        working = false;
        return;
      }
    }
  }
  return Object.freeze({
    // The records of one report.
    write(records) {
      for (const record of records) {
        if (!working) break;
        try {
          writeOne(record);
        } catch {
          working = false;
        }
      }
    },
  });
}
