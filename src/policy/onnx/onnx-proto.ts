/**
 * The subset of ONNX's protobuf schema (onnx/onnx.proto, IR version 8) that the exporter
 * writes, parsed at load time by protobufjs.
 *
 * Why a hand-kept subset instead of the `onnx-proto` npm package: that package pins
 * protobufjs 6 (a second, older copy next to the project's protobufjs 8) and ships the whole
 * schema as generated code; the exporter needs eight messages. Field numbers and enum values
 * below are copied from onnx.proto and must never be renumbered (they are the wire format).
 */
import protobuf from 'protobufjs';

const ONNX_PROTO_SUBSET = `
syntax = "proto2";
package onnx;

message AttributeProto {
  enum AttributeType {
    UNDEFINED = 0; FLOAT = 1; INT = 2; STRING = 3; TENSOR = 4; GRAPH = 5;
    FLOATS = 6; INTS = 7; STRINGS = 8; TENSORS = 9; GRAPHS = 10;
  }
  optional string name = 1;
  optional float f = 2;
  optional int64 i = 3;
  optional bytes s = 4;
  optional TensorProto t = 5;
  repeated float floats = 7;
  repeated int64 ints = 8;
  repeated bytes strings = 9;
  optional string doc_string = 13;
  optional AttributeType type = 20;
}

message ValueInfoProto {
  optional string name = 1;
  optional TypeProto type = 2;
  optional string doc_string = 3;
}

message NodeProto {
  repeated string input = 1;
  repeated string output = 2;
  optional string name = 3;
  optional string op_type = 4;
  optional string domain = 7;
  repeated AttributeProto attribute = 5;
  optional string doc_string = 6;
}

message StringStringEntryProto {
  optional string key = 1;
  optional string value = 2;
}

message OperatorSetIdProto {
  optional string domain = 1;
  optional int64 version = 2;
}

message ModelProto {
  optional int64 ir_version = 1;
  repeated OperatorSetIdProto opset_import = 8;
  optional string producer_name = 2;
  optional string producer_version = 3;
  optional string domain = 4;
  optional int64 model_version = 5;
  optional string doc_string = 6;
  optional GraphProto graph = 7;
  repeated StringStringEntryProto metadata_props = 14;
}

message GraphProto {
  repeated NodeProto node = 1;
  optional string name = 2;
  repeated TensorProto initializer = 5;
  optional string doc_string = 10;
  repeated ValueInfoProto input = 11;
  repeated ValueInfoProto output = 12;
  repeated ValueInfoProto value_info = 13;
}

message TensorProto {
  enum DataType {
    UNDEFINED = 0; FLOAT = 1; UINT8 = 2; INT8 = 3; UINT16 = 4; INT16 = 5; INT32 = 6;
    INT64 = 7; STRING = 8; BOOL = 9; FLOAT16 = 10; DOUBLE = 11;
  }
  repeated int64 dims = 1;
  optional int32 data_type = 2;
  repeated float float_data = 4 [packed = true];
  repeated int32 int32_data = 5 [packed = true];
  repeated int64 int64_data = 7 [packed = true];
  optional string name = 8;
  optional string doc_string = 12;
  optional bytes raw_data = 9;
  repeated StringStringEntryProto external_data = 13;
  optional int32 data_location = 14;
}

message TensorShapeProto {
  message Dimension {
    oneof value {
      int64 dim_value = 1;
      string dim_param = 2;
    }
    optional string denotation = 3;
  }
  repeated Dimension dim = 1;
}

message TypeProto {
  message Tensor {
    optional int32 elem_type = 1;
    optional TensorShapeProto shape = 2;
  }
  oneof value {
    Tensor tensor_type = 1;
  }
  optional string denotation = 6;
}
`;

/** ONNX TensorProto.DataType values used by the exporter. */
export const OnnxDataType = { FLOAT: 1, INT32: 6, INT64: 7, BOOL: 9 } as const;

/** ONNX AttributeProto.AttributeType values used by the exporter. */
export const OnnxAttrType = { FLOAT: 1, INT: 2, STRING: 3, TENSOR: 4, FLOATS: 6, INTS: 7 } as const;

/** Plain-object shapes of the messages (snake_case field names, as in onnx.proto). */
export interface TensorProtoObj {
  name: string;
  dims: number[];
  data_type: number;
  raw_data?: Uint8Array;
  int64_data?: number[];
  float_data?: number[];
  int32_data?: number[];
  /** External data (`location`, `offset`, `length`) when `data_location` is 1 (EXTERNAL). */
  external_data?: Array<{ key: string; value: string }>;
  data_location?: number;
}
export interface AttributeProtoObj {
  name: string;
  type: number;
  f?: number;
  i?: number;
  s?: Uint8Array;
  t?: TensorProtoObj;
  floats?: number[];
  ints?: number[];
}
export interface NodeProtoObj {
  input: string[];
  output: string[];
  name: string;
  op_type: string;
  domain?: string;
  attribute?: AttributeProtoObj[];
}
/** A dimension is a fixed size or a symbolic name. */
export type DimSpec = number | string;
export interface ValueInfoProtoObj {
  name: string;
  type: { tensor_type: { elem_type: number; shape: { dim: Array<{ dim_value: number } | { dim_param: string }> } } };
}
interface GraphProtoObj {
  name: string;
  node: NodeProtoObj[];
  initializer: TensorProtoObj[];
  input: ValueInfoProtoObj[];
  output: ValueInfoProtoObj[];
}
export interface ModelProtoObj {
  ir_version: number;
  opset_import: Array<{ domain: string; version: number }>;
  producer_name: string;
  producer_version: string;
  graph: GraphProtoObj;
  metadata_props?: Array<{ key: string; value: string }>;
}

let root: protobuf.Root | undefined;

function types(): { model: protobuf.Type; graph: protobuf.Type; tensor: protobuf.Type } {
  root ??= protobuf.parse(ONNX_PROTO_SUBSET, { keepCase: true }).root;
  return {
    model: root.lookupType('onnx.ModelProto'),
    graph: root.lookupType('onnx.GraphProto'),
    tensor: root.lookupType('onnx.TensorProto'),
  };
}

/** Initializers at least this large are spliced in as raw bytes instead of going through protobufjs. */
const SPLICE_BYTES = 4096;

/**
 * Serialise a model to ONNX protobuf bytes.
 *
 * Large initializers are written by hand: protobufjs's writer dominated export time (≈ 4.6 of
 * 6.2 ms CPU for the default 1.8 MB model), and weight sync exports after every optimizer
 * step. The result is ordinary protobuf — small fields through protobufjs, then each large
 * TensorProto appended as another `initializer` (field 5) of the graph, and the graph as field 7
 * of the model with its length computed here — so any protobuf parser reads it unchanged.
 */
export function encodeModel(model: ModelProtoObj): Uint8Array {
  const t = types();
  const big = model.graph.initializer.filter((x) => (x.raw_data?.byteLength ?? 0) >= SPLICE_BYTES);
  const small = model.graph.initializer.filter((x) => (x.raw_data?.byteLength ?? 0) < SPLICE_BYTES);
  const graph0 = t.graph.encode({ ...model.graph, initializer: small } as unknown as Record<string, unknown>).finish();
  const { graph: _graph, ...rest } = model;
  const model0 = t.model.encode(rest as unknown as Record<string, unknown>).finish();

  // Each large initializer: field 5 (tag 0x2a) { header fields, raw_data field 9 (tag 0x4a) }.
  const pieces = big.map((x) => {
    const header = t.tensor
      .encode({ name: x.name, dims: x.dims, data_type: x.data_type } as unknown as Record<string, unknown>)
      .finish();
    const raw = x.raw_data!;
    const tensorLen = header.length + 1 + varintLength(raw.byteLength) + raw.byteLength;
    return { header, raw, tensorLen };
  });
  const graphLen = graph0.length + pieces.reduce((a, p) => a + 1 + varintLength(p.tensorLen) + p.tensorLen, 0);
  const total = model0.length + 1 + varintLength(graphLen) + graphLen;
  const out = new Uint8Array(total);
  let o = 0;
  const put = (bytes: Uint8Array): void => {
    out.set(bytes, o);
    o += bytes.length;
  };
  const putVarint = (v: number): void => {
    while (v >= 0x80) {
      out[o++] = (v & 0x7f) | 0x80;
      v = Math.floor(v / 128);
    }
    out[o++] = v;
  };
  put(model0);
  out[o++] = 0x3a; // ModelProto.graph = 7, length-delimited
  putVarint(graphLen);
  put(graph0);
  for (const p of pieces) {
    out[o++] = 0x2a; // GraphProto.initializer = 5
    putVarint(p.tensorLen);
    put(p.header);
    out[o++] = 0x4a; // TensorProto.raw_data = 9
    putVarint(p.raw.byteLength);
    put(p.raw);
  }
  if (o !== total) throw new Error(`encodeModel: wrote ${o} bytes, expected ${total}`);
  return out;
}

function varintLength(v: number): number {
  let n = 1;
  while (v >= 0x80) {
    v = Math.floor(v / 128);
    n++;
  }
  return n;
}

/** Parse ONNX protobuf bytes (only the fields of the subset above are kept). */
export function decodeModel(bytes: Uint8Array): ModelProtoObj {
  const { model: type } = types();
  return type.toObject(type.decode(bytes), {
    longs: Number,
    bytes: Uint8Array,
    defaults: false,
    arrays: true,
  }) as unknown as ModelProtoObj;
}
