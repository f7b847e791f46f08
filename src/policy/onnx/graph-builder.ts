/**
 * A small ONNX graph builder: named values, nodes with typed attributes, float32 / int64
 * initializers. It only assembles {@link ModelProtoObj} objects; encoding lives in onnx-proto.ts.
 */
import {
  OnnxAttrType,
  OnnxDataType,
  encodeModel,
  type AttributeProtoObj,
  type DimSpec,
  type ModelProtoObj,
  type NodeProtoObj,
  type TensorProtoObj,
  type ValueInfoProtoObj,
} from './onnx-proto.ts';

/** Attribute values a node may carry; arrays of integers become INTS, arrays of floats FLOATS. */
export type AttrValue = number | string | number[] | { floats: number[] } | { int: number } | { float: number };

/** Whether the host is little-endian (ONNX raw_data is little-endian). */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Builds one ONNX graph. Value names are unique; {@link GraphBuilder.fresh} makes new ones. */
export class GraphBuilder {
  private readonly nodes: NodeProtoObj[] = [];
  private readonly inits: TensorProtoObj[] = [];
  private readonly inputs: ValueInfoProtoObj[] = [];
  private readonly outputs: ValueInfoProtoObj[] = [];
  private readonly constCache = new Map<string, string>();
  private counter = 0;
  private readonly domains = new Set<string>();

  /** A fresh value name with a readable prefix. */
  fresh(prefix: string): string {
    return `${prefix}__${this.counter++}`;
  }

  /** Declare a graph input. */
  input(name: string, elemType: number, dims: DimSpec[]): string {
    this.inputs.push(valueInfo(name, elemType, dims));
    return name;
  }

  /** Declare a graph output (the value must be produced by some node). */
  output(name: string, elemType: number, dims: DimSpec[]): void {
    this.outputs.push(valueInfo(name, elemType, dims));
  }

  /** Add a float32 initializer (weights). Data are copied little-endian into raw_data. */
  floatInit(name: string, dims: number[], data: Float32Array): string {
    this.inits.push({ name, dims, data_type: OnnxDataType.FLOAT, raw_data: float32Bytes(data) });
    return name;
  }

  /** Add an int64 initializer (shapes, axes, indices). */
  int64Init(name: string, dims: number[], values: number[]): string {
    const buf = new BigInt64Array(values.map((v) => BigInt(v)));
    const raw = new Uint8Array(buf.buffer.slice(0));
    if (!LITTLE_ENDIAN) swapBytes(raw, 8);
    this.inits.push({ name, dims, data_type: OnnxDataType.INT64, raw_data: raw });
    return name;
  }

  /** A shared int64 constant (1-D, or a scalar when `scalar`), deduplicated by value. */
  constI64(values: number[], scalar = false): string {
    const key = `i64:${scalar ? 's' : 'v'}:${values.join(',')}`;
    let name = this.constCache.get(key);
    if (!name) {
      name = this.int64Init(this.fresh('const_i64'), scalar ? [] : [values.length], values);
      this.constCache.set(key, name);
    }
    return name;
  }

  /** A shared float32 scalar constant. */
  constF32(value: number): string {
    const key = `f32:${value}`;
    let name = this.constCache.get(key);
    if (!name) {
      name = this.floatInit(this.fresh('const_f32'), [], new Float32Array([value]));
      this.constCache.set(key, name);
    }
    return name;
  }

  /**
   * Add a node; returns its output names (one fresh name per requested output unless names are
   * given). Use {@link GraphBuilder.op} for single-output nodes.
   */
  node(
    opType: string,
    inputs: string[],
    outputs: number | string[],
    attrs: Record<string, AttrValue> = {},
    domain?: string,
  ): string[] {
    const outNames = typeof outputs === 'number' ? Array.from({ length: outputs }, () => this.fresh(opType)) : outputs;
    const attribute = Object.entries(attrs).map(([k, v]) => attribute_(k, v));
    const node: NodeProtoObj = { input: inputs, output: outNames, name: this.fresh(`n_${opType}`), op_type: opType, attribute };
    if (domain) {
      node.domain = domain;
      this.domains.add(domain);
    }
    this.nodes.push(node);
    return outNames;
  }

  /** A single-output node (`domain` for non-standard operators, e.g. 'com.microsoft'). */
  op(opType: string, inputs: string[], attrs: Record<string, AttrValue> = {}, outName?: string, domain?: string): string {
    return this.node(opType, inputs, outName ? [outName] : 1, attrs, domain)[0]!;
  }

  /** The assembled model (opset `opset` of the default domain, IR version 8). */
  build(opts: { opset: number; graphName: string; metadata?: Record<string, string> }): ModelProtoObj {
    return {
      ir_version: 8,
      // Non-standard domains (ONNX Runtime contrib ops) are version 1.
      opset_import: [{ domain: '', version: opts.opset }, ...[...this.domains].map((domain) => ({ domain, version: 1 }))],
      producer_name: 'anchor-rl',
      producer_version: '0.1.0',
      graph: { name: opts.graphName, node: this.nodes, initializer: this.inits, input: this.inputs, output: this.outputs },
      metadata_props: Object.entries(opts.metadata ?? {}).map(([key, value]) => ({ key, value })),
    };
  }

  /** Build and encode to ONNX bytes. */
  encode(opts: { opset: number; graphName: string; metadata?: Record<string, string> }): Uint8Array {
    return encodeModel(this.build(opts));
  }
}

function valueInfo(name: string, elemType: number, dims: DimSpec[]): ValueInfoProtoObj {
  return {
    name,
    type: {
      tensor_type: {
        elem_type: elemType,
        shape: { dim: dims.map((d) => (typeof d === 'number' ? { dim_value: d } : { dim_param: d })) },
      },
    },
  };
}

function attribute_(name: string, v: AttrValue): AttributeProtoObj {
  if (typeof v === 'string') return { name, type: OnnxAttrType.STRING, s: new TextEncoder().encode(v) };
  if (typeof v === 'number') {
    // Plain numbers are INT when integral; use { float } to force a float attribute.
    return Number.isInteger(v) ? { name, type: OnnxAttrType.INT, i: v } : { name, type: OnnxAttrType.FLOAT, f: v };
  }
  if (Array.isArray(v)) return { name, type: OnnxAttrType.INTS, ints: v };
  if ('floats' in v) return { name, type: OnnxAttrType.FLOATS, floats: v.floats };
  if ('int' in v) return { name, type: OnnxAttrType.INT, i: v.int };
  return { name, type: OnnxAttrType.FLOAT, f: v.float };
}

function float32Bytes(data: Float32Array): Uint8Array {
  // A view, not a copy, on little-endian hosts: the bytes are copied once, by the encoder.
  if (LITTLE_ENDIAN) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const out = new Uint8Array(data.byteLength);
  out.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  swapBytes(out, 4);
  return out;
}

function swapBytes(bytes: Uint8Array, width: number): void {
  for (let i = 0; i < bytes.length; i += width) bytes.subarray(i, i + width).reverse();
}
