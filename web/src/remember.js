// A core call remembered for the inputs it was made from: compute(...args)
// runs again only when the caller's key changes (sections that show the same
// data share one call per change).
export function remember(compute) {
  let lastKey = null;
  let lastValue;
  return (key, ...args) => {
    if (key !== lastKey) {
      lastValue = compute(...args);
      lastKey = key; // set only after success, so a failed call is tried again
    }
    return lastValue;
  };
}
