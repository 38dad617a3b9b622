package views

import (
	"math"
	"reflect"
	"strconv"
	"testing"
	"unsafe"

	"github.com/charmbracelet/lipgloss"
)

// luminance is WCAG 2's relative luminance of a #RRGGBB color.
func luminance(t *testing.T, hex string) float64 {
	t.Helper()
	if len(hex) != 7 || hex[0] != '#' {
		t.Fatalf("color %q is not #RRGGBB", hex)
	}
	var c [3]float64
	for i := range c {
		v, err := strconv.ParseUint(hex[1+2*i:3+2*i], 16, 8)
		if err != nil {
			t.Fatalf("color %q: %v", hex, err)
		}
		x := float64(v) / 255
		if x <= 0.03928 {
			c[i] = x / 12.92
		} else {
			c[i] = math.Pow((x+0.055)/1.055, 2.4)
		}
	}
	return 0.2126*c[0] + 0.7152*c[1] + 0.0722*c[2]
}

// contrast is WCAG 2's contrast ratio of two colors.
func contrast(t *testing.T, a, b string) float64 {
	la, lb := luminance(t, a), luminance(t, b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

func TestContrastFormula(t *testing.T) {
	if got := contrast(t, "#000000", "#FFFFFF"); math.Abs(got-21) > 1e-9 {
		t.Fatalf("black on white = %v, want 21", got)
	}
	if got := contrast(t, "#767676", "#FFFFFF"); got < 4.5 || got > 4.6 {
		t.Fatalf("#767676 on white = %v, want just above 4.5 (the known AA boundary)", got)
	}
}

// aa is WCAG AA's minimum contrast for normal text.
const aa = 4.5

// Every foreground/background pair of the theme meets AA on light and dark
// terminals: each style's foreground against its own background when it has
// one, else against every terminal background the theme is made for; and
// every palette color, used or not.
func TestThemeContrast(t *testing.T) {
	check := func(name string, fg, bg lipgloss.TerminalColor) {
		fa, ok := fg.(lipgloss.AdaptiveColor)
		if !ok {
			if _, none := fg.(lipgloss.NoColor); !none {
				t.Errorf("%s: foreground %#v is not an adaptive color", name, fg)
			}
			return // the terminal's own foreground on its own background
		}
		lights, darks := themeBackgrounds.light, themeBackgrounds.dark
		if ba, ok := bg.(lipgloss.AdaptiveColor); ok {
			lights, darks = []string{ba.Light}, []string{ba.Dark}
		}
		for _, b := range lights {
			if r := contrast(t, fa.Light, b); r < aa {
				t.Errorf("%s: %s on light %s has contrast %.2f < %.1f", name, fa.Light, b, r, aa)
			}
		}
		for _, b := range darks {
			if r := contrast(t, fa.Dark, b); r < aa {
				t.Errorf("%s: %s on dark %s has contrast %.2f < %.1f", name, fa.Dark, b, r, aa)
			}
		}
	}
	st := reflect.ValueOf(newStyles(false)).Elem()
	n := 0
	for i := range st.NumField() {
		s, ok := field(st, i).(lipgloss.Style)
		if !ok {
			continue
		}
		n++
		check("style "+st.Type().Field(i).Name, s.GetForeground(), s.GetBackground())
	}
	pal := reflect.ValueOf(&palette).Elem()
	for i := range pal.NumField() {
		check("palette "+pal.Type().Field(i).Name, field(pal, i).(lipgloss.AdaptiveColor), lipgloss.NoColor{})
	}
	if n < 20 || pal.NumField() < 10 {
		t.Fatalf("checked %d styles and %d palette colors: the theme was not read", n, pal.NumField())
	}
}

// field reads field i of an addressable struct, exported or not.
func field(v reflect.Value, i int) any {
	f := v.Field(i)
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Interface()
}

// themeBackgrounds are the terminal backgrounds the palette is made for: the
// common dark ones (black, xterm 234/235, Nord, Solarized dark) and light ones
// (white, xterm 255, Solarized light).
var themeBackgrounds = struct{ light, dark []string }{
	light: []string{"#FFFFFF", "#EEEEEE", "#FDF6E3"},
	dark:  []string{"#000000", "#1C1C1C", "#262626", "#2E3440", "#002B36"},
}
