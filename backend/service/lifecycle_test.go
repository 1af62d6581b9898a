package service

import (
	"reflect"
	"slices"
	"testing"
)

// Service's own methods are its life cycle; what the faces ask is a
// sub-service's (svc.Sessions.List, svc.MCP.Ready: docs/ARCHITECTURE.md,
// "One service, two faces").
func TestServiceMethodsAreItsLifeCycle(t *testing.T) {
	t.Parallel()
	typ := reflect.TypeFor[*Service]()
	var got []string
	for i := range typ.NumMethod() {
		got = append(got, typ.Method(i).Name)
	}
	if want := []string{"Close", "Emit", "SetEmitter"}; !slices.Equal(got, want) {
		t.Fatalf("Service's methods are %v, want its life cycle %v: a face's call belongs to a sub-service", got, want)
	}
}
