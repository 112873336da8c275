/** The root jest config plus the judgement recorder (scripts/risk-corpus.sh). */
const base = require('../jest.config.js');
module.exports = {
  ...base,
  rootDir: require('path').join(__dirname, '..'),
  setupFilesAfterEnv: [...base.setupFilesAfterEnv, '<rootDir>/scripts/risk-corpus-record.js'],
};
