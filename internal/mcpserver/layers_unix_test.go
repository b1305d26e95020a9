//go:build unix

package mcpserver

func testLayers() []fileLayer { return []fileLayer{fdLayer{}, rootLayer{}} }
