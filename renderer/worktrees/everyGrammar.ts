// Every highlight.js grammar, a chunk of its own (about 1 MB) that syntaxGrammars.ts loads once the
// Changes view has painted; the diff viewer starts with the common ones (see vite.config.mts).
export { all } from 'lowlight';
