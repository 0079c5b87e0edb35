// Types of bin/node-flags.js (plain JavaScript, beside bin/vericase.js).
export const NODE_FLAGS: string[];
