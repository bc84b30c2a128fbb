// A Map-backed fake of the page's localStorage, for the stores that keep
// what a learner did (the exercises' progress, the kept runs): `items`
// shows what they wrote.
export function fakeStorage(initial = {}) {
  const items = new Map(Object.entries(initial));
  return {
    items,
    getItem: (key) => (items.has(key) ? items.get(key) : null),
    setItem: (key, value) => items.set(key, String(value)),
    removeItem: (key) => items.delete(key),
  };
}
