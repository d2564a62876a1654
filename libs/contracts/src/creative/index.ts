export * from './patterns.js';
export * from './video.patterns.js';
export * from './video-document.js';
export * from './video-projects.dto.js';
export * from './project-assets.dto.js';
export * from './themes.dto.js';
