// Package themes owns palettes and Lip Gloss styles: dark, light and high
// contrast, picked from the terminal background or config, NO_COLOR, and user
// themes as TOML files (os.UserConfigDir()/sentinel/themes/*.toml) reloaded
// live through Watch.
//
// It must not know about runs, events or Bubble Tea: it turns a palette into
// styles and reads theme files, nothing more.
package themes
