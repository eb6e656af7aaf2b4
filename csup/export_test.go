package csup

// UntypeNulls exposes the CSUP v16 writer's typed-null conversion to tests.
var UntypeNulls = untypeNulls

// HasTypedNull exposes the v16 writer's test for values it converts.
var HasTypedNull = hasTypedNull

// TypeValuesInBytes makes the CSUP v16 writer put type values in Bytes
// nodes (as some versions of super do); it returns the undo.
func TypeValuesInBytes() func() {
	typeValuesInBytes = true
	return func() { typeValuesInBytes = false }
}
