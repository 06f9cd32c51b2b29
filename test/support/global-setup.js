// Unpacks the npm-shipped Chromium once, before jest starts its workers (two workers unpacking at once could launch a
// half-written binary). The browser tests find it where this leaves it.
module.exports = async () => {
  if (process.env.CHROMIUM_PATH) return;
  const sparticuz = require('@sparticuz/chromium');
  await (sparticuz.default ?? sparticuz).executablePath();
};
