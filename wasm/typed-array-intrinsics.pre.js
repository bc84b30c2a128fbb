// The intrinsic accessors of %TypedArray%, captured when the module loads,
// for the bindings' JS helpers (wasm/transfer.cpp): they read a typed array's
// internal slots, so an own `length`, a subclass's getters or an own `set`
// cannot change what C++ copies in or writes out.
var attentionTypedArray = (function intrinsics() {
  var prototype = Object.getPrototypeOf(Int8Array.prototype);
  var call = Function.prototype.call;
  return {
    length: call.bind(Object.getOwnPropertyDescriptor(prototype, 'length').get),
    set: call.bind(prototype.set),
  };
})();
