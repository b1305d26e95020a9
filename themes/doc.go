// Package themes owns palettes and Lip Gloss styles: dark, light and high
// contrast, picked from the terminal background or config, NO_COLOR, and user
// themes as TOML files reloaded live.
package themes
