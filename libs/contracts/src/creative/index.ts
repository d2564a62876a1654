export * from './patterns.js';
export * from './image.patterns.js';
export * from './image-document.js';
export * from './image-editor.dto.js';
export * from './templates.dto.js';
