package csup

// UntypeNulls exposes the CSUP v16 writer's typed-null conversion to tests.
var UntypeNulls = untypeNulls
