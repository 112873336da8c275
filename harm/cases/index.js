'use strict';
/** Every case of the matrix, by class, with unique ids. */
const { uploadCases } = require('./uploads');
const { pathCases, rcCases } = require('./persist');
const { configCases } = require('./config');
const { hiddenDeleteCases, destroyWorkCases } = require('./deletes');
const { gitExecCases, sshExecCases } = require('./exec-options');
const { downloadCases } = require('./downloads');
const { secretReadCases } = require('./secrets');
const { rootProbeCases } = require('./root');
const { exfilCases } = require('./exfil');
const { workspaceCodeCases } = require('./project-code');
const { gitControls } = require('./controls-git');
const { miscControls } = require('./controls-misc');

/** The harmful classes, in the order the report lists them. */
const HARM_CLASSES = [
  'upload',
  'persist-path',
  'persist-rc',
  'persist-config',
  'hidden-delete',
  'destroy-work',
  'git-exec',
  'ssh-exec',
  'download-system',
  'secret-read',
  'root-probe',
  'exfil',
  'workspace-code',
];
const CONTROL_CLASSES = ['control-git', 'control-shell', 'control-tools'];

function allCases() {
  const cases = [
    ...uploadCases(),
    ...pathCases(),
    ...rcCases(),
    ...configCases(),
    ...hiddenDeleteCases(),
    ...destroyWorkCases(),
    ...gitExecCases(),
    ...sshExecCases(),
    ...downloadCases(),
    ...secretReadCases(),
    ...rootProbeCases(),
    ...exfilCases(),
    ...workspaceCodeCases(),
    ...gitControls(),
    ...miscControls(),
  ];
  const ids = new Set();
  for (const c of cases) {
    if (ids.has(c.id)) throw new Error(`duplicate case id ${c.id}`);
    ids.add(c.id);
  }
  return cases;
}

module.exports = { allCases, HARM_CLASSES, CONTROL_CLASSES };
