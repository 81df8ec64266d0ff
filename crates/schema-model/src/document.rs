//! The records of a contract document: document, namespace, component, method, param, field,
//! event, declared error, example, reserved name. Type nodes are in `type_node`.
//!
//! Every record keeps the members this build has no name for in `unknown`, in the order they
//! were read, so that a writer re-emits them (the evolution seed: a component that loads,
//! changes and stores a record must carry what it does not understand). Every optional member
//! is an `Option`: absent stays absent, and a present `false` or `[]` stays present.

use indexmap::IndexMap;
use serde_json::{Map, Value};

use crate::{Cause, Link, TypeNode, Wire};

/// Members of a record that this build has no name for, in document order.
pub type Unknown = Map<String, Value>;

/// A `.types.json` document.
#[derive(Debug, Clone, PartialEq)]
pub struct Document {
    /// The format version the document was read under (`schema`). One of
    /// [`READABLE_SCHEMAS`](crate::READABLE_SCHEMAS); never filled in when absent.
    pub schema: u64,
    /// A name for the document (usually the plant's).
    pub name: Option<String>,
    /// What the document describes.
    pub description: Option<String>,
    /// How the plant is spoken to; absent: accord's own wire (docs/wire.md).
    pub wire: Option<Wire>,
    /// The namespaces, by name, in document order.
    pub namespaces: Option<IndexMap<String, Namespace>>,
    /// Members this build has no name for.
    pub unknown: Unknown,
}

impl Default for Document {
    /// An empty document in the format this build writes ([`SCHEMA_VERSION`](crate::SCHEMA_VERSION)).
    fn default() -> Self {
        Document {
            schema: crate::SCHEMA_VERSION,
            name: None,
            description: None,
            wire: None,
            namespaces: None,
            unknown: Unknown::new(),
        }
    }
}

/// One namespace of a plant's API: its methods are called as `namespace.method`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Namespace {
    /// The contract version: the plant's own statement about this namespace's API (semver
    /// text). Not the format version.
    pub version: String,
    /// What the namespace is for.
    pub description: Option<String>,
    /// Whether (and why) the namespace is deprecated.
    pub deprecated: Option<Deprecated>,
    /// The component that serves this namespace.
    pub component: Option<Component>,
    /// How this namespace is spoken to, member by member over the document's `wire`.
    pub wire: Option<Wire>,
    /// Methods, by name.
    pub methods: Option<IndexMap<String, Method>>,
    /// Events, by name.
    pub events: Option<IndexMap<String, Event>>,
    /// Named types, referenced by `ref` nodes.
    pub types: Option<IndexMap<String, TypeNode>>,
    /// Names that were removed and may never be reused for a method, event or type here.
    pub reserved: Option<Vec<Reserved>>,
    /// Members this build has no name for.
    pub unknown: Unknown,
}

/// The `component` section of a namespace: the deployable unit that serves it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Component {
    /// The component's name.
    pub name: String,
    /// What the component is.
    pub description: Option<String>,
    /// Members this build has no name for.
    pub unknown: Unknown,
}

/// One method: what a caller sends, what the plant answers, and what calling it does.
#[derive(Debug, Clone, PartialEq)]
pub struct Method {
    /// What calling the method does to the plant; absent or unknown: undeclared.
    pub semantics: Option<Semantics>,
    /// What the method does.
    pub description: Option<String>,
    /// Whether (and why) the method is deprecated.
    pub deprecated: Option<Deprecated>,
    /// How params may be sent; absent: [`ParamStructure::Either`].
    pub param_structure: Option<ParamStructure>,
    /// The params in position order; absent: the method takes none.
    pub params: Option<Vec<Param>>,
    /// The type of the result.
    pub result: TypeNode,
    /// The error codes the method declares.
    pub errors: Option<Vec<ErrorDecl>>,
    /// Example calls.
    pub examples: Option<Vec<MethodExample>>,
    /// Methods whose params can be taken from a call of this one, by link name.
    pub links: Option<IndexMap<String, Link>>,
    /// The events a call of this method may cause.
    pub causes: Option<Vec<Cause>>,
    /// Members this build has no name for.
    pub unknown: Unknown,
}

/// One method param: a name (for by-name calls), a position (its index), and a field.
#[derive(Debug, Clone, PartialEq)]
pub struct Param {
    /// The param's name.
    pub name: String,
    /// Its type and presence.
    pub field: Field,
}

/// A member of an object type, or a param: a type, and whether it may be absent.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// The field's type.
    pub ty: TypeNode,
    /// Whether the field may be absent; absent: `false` (the field is required).
    pub optional: Option<bool>,
    /// Whether the field may be absent in input (what a caller sends: params, and types
    /// reached from them); absent: what `optional` says.
    pub input_optional: Option<bool>,
    /// Whether the field may be absent in output (what the plant sends: results, events and
    /// error data); absent: what `optional` says.
    pub output_optional: Option<bool>,
    /// What the field means.
    pub description: Option<String>,
    /// Whether (and why) the field is deprecated.
    pub deprecated: Option<Deprecated>,
    /// Members this build has no name for.
    pub unknown: Unknown,
}

impl Field {
    /// A required field of type `ty`, with nothing else said.
    pub fn new(ty: TypeNode) -> Self {
        Field {
            ty,
            optional: None,
            input_optional: None,
            output_optional: None,
            description: None,
            deprecated: None,
            unknown: Unknown::new(),
        }
    }

    /// Whether the field may be absent (`optional` read with its absent meaning). Readers that
    /// do not tell input from output use this.
    pub fn is_optional(&self) -> bool {
        self.optional.unwrap_or(false)
    }

    /// Whether the field may be absent in input: `inputOptional`, else `optional`.
    pub fn is_optional_in(&self) -> bool {
        self.input_optional.unwrap_or_else(|| self.is_optional())
    }

    /// Whether the field may be absent in output: `outputOptional`, else `optional`.
    pub fn is_optional_out(&self) -> bool {
        self.output_optional.unwrap_or_else(|| self.is_optional())
    }
}

/// One event: a notification the plant sends to subscribers.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    /// What the event reports.
    pub description: Option<String>,
    /// Whether (and why) the event is deprecated.
    pub deprecated: Option<Deprecated>,
    /// The type of the notification's payload.
    pub payload: TypeNode,
    /// Example payloads.
    pub examples: Option<Vec<Value>>,
    /// Members this build has no name for.
    pub unknown: Unknown,
}

/// A declared JSON-RPC error of a method.
#[derive(Debug, Clone, PartialEq)]
pub struct ErrorDecl {
    /// The JSON-RPC error code.
    pub code: i64,
    /// The error's `message`.
    pub message: String,
    /// When the plant answers it.
    pub description: Option<String>,
    /// The type of the error's `data`; absent: the error carries no data.
    pub data: Option<TypeNode>,
    /// Members this build has no name for.
    pub unknown: Unknown,
}

/// An example call: params, and the result they give.
#[derive(Debug, Clone, PartialEq)]
pub struct MethodExample {
    /// A short name for the example.
    pub name: Option<String>,
    /// What the example shows.
    pub description: Option<String>,
    /// The params: an array (by position) or an object (by name).
    pub params: Value,
    /// The result the params give.
    pub result: Option<Value>,
    /// Members this build has no name for.
    pub unknown: Unknown,
}

/// A name that was removed and may never be reused.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Reserved {
    /// The name.
    pub name: String,
    /// Why it is reserved (what it was, when it was removed).
    pub note: Option<String>,
    /// Members this build has no name for.
    pub unknown: Unknown,
}

/// `deprecated`: `true`/`false`, or a note saying why and what to use instead (which means
/// deprecated). Kept in the form it was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Deprecated {
    /// `true` or `false`.
    Flag(bool),
    /// A note; the element is deprecated.
    Note(String),
}

impl Deprecated {
    /// Whether the element is deprecated.
    pub fn is_deprecated(&self) -> bool {
        !matches!(self, Deprecated::Flag(false))
    }
}

/// What calling a method does to the plant.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Semantics {
    /// No effect on the plant.
    Read,
    /// An effect that is harmless to repeat.
    Idempotent,
    /// An effect.
    Write,
    /// An effect that removes or overwrites state.
    Destructive,
    /// A value this build does not know, kept as written; it reads as undeclared.
    Unknown(String),
}

impl Semantics {
    /// The semantics values this build knows, in order of increasing effect.
    pub const KNOWN: [Semantics; 4] =
        [Semantics::Read, Semantics::Idempotent, Semantics::Write, Semantics::Destructive];

    /// Reads a semantics value; text this build does not know is kept as [`Semantics::Unknown`].
    pub fn from_text(text: &str) -> Self {
        match text {
            "read" => Semantics::Read,
            "idempotent" => Semantics::Idempotent,
            "write" => Semantics::Write,
            "destructive" => Semantics::Destructive,
            other => Semantics::Unknown(other.to_owned()),
        }
    }

    /// The text as written.
    pub fn as_str(&self) -> &str {
        match self {
            Semantics::Read => "read",
            Semantics::Idempotent => "idempotent",
            Semantics::Write => "write",
            Semantics::Destructive => "destructive",
            Semantics::Unknown(text) => text,
        }
    }

    /// The semantics a careful caller acts on: `None` for undeclared, which means "ask before
    /// pressing this" (an unknown value reads as undeclared).
    pub fn declared(&self) -> Option<&Semantics> {
        match self {
            Semantics::Unknown(_) => None,
            known => Some(known),
        }
    }

    /// The class a tool acts on: conform's `--allow`, mcp's exposure, the console's
    /// confirmation. An unknown value is [`SemanticsClass::Undeclared`].
    pub fn class(&self) -> SemanticsClass {
        match self {
            Semantics::Read => SemanticsClass::Read,
            Semantics::Idempotent => SemanticsClass::Idempotent,
            Semantics::Write => SemanticsClass::Write,
            Semantics::Destructive => SemanticsClass::Destructive,
            Semantics::Unknown(_) => SemanticsClass::Undeclared,
        }
    }
}

/// A method's semantics as the tools that call a plant act on them (conform, mcp, the
/// console): the four known values and "undeclared" (absent, or a value this build does not
/// know: "ask before pressing"). The one reading of semantics every caller shares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SemanticsClass {
    /// No effect on the plant.
    Read,
    /// An effect that is harmless to repeat.
    Idempotent,
    /// An effect.
    Write,
    /// An effect that removes or overwrites state.
    Destructive,
    /// No semantics declared (or a value this build does not know).
    Undeclared,
}

impl SemanticsClass {
    /// Every class, in order of increasing risk.
    pub const ALL: [SemanticsClass; 5] = [
        SemanticsClass::Read,
        SemanticsClass::Idempotent,
        SemanticsClass::Write,
        SemanticsClass::Destructive,
        SemanticsClass::Undeclared,
    ];

    /// The class of a method, from its declared semantics.
    pub fn of(method: &Method) -> SemanticsClass {
        SemanticsClass::of_semantics(method.semantics.as_ref())
    }

    /// The class of semantics as declared (`None`: absent).
    pub fn of_semantics(semantics: Option<&Semantics>) -> SemanticsClass {
        semantics.map_or(SemanticsClass::Undeclared, Semantics::class)
    }

    /// The class as written (`read`, …, `undeclared`), as `--allow` takes it.
    pub fn as_str(self) -> &'static str {
        match self {
            SemanticsClass::Read => "read",
            SemanticsClass::Idempotent => "idempotent",
            SemanticsClass::Write => "write",
            SemanticsClass::Destructive => "destructive",
            SemanticsClass::Undeclared => "undeclared",
        }
    }

    /// The class written `text`.
    pub fn from_name(text: &str) -> Option<SemanticsClass> {
        SemanticsClass::ALL.into_iter().find(|c| c.as_str() == text)
    }
}

impl Method {
    /// A method with the given result and nothing else said (undeclared semantics, no params).
    pub fn new(result: TypeNode) -> Self {
        Method {
            semantics: None,
            description: None,
            deprecated: None,
            param_structure: None,
            params: None,
            result,
            errors: None,
            examples: None,
            links: None,
            causes: None,
            unknown: Unknown::new(),
        }
    }

    /// The semantics a careful caller acts on: `None` when absent or unknown (undeclared).
    pub fn declared_semantics(&self) -> Option<&Semantics> {
        self.semantics.as_ref().and_then(Semantics::declared)
    }
}

/// How a method's params may be sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ParamStructure {
    /// As a JSON object keyed by param name.
    ByName,
    /// As a JSON array in param order.
    ByPosition,
    /// Either form.
    Either,
}

impl ParamStructure {
    /// Every value, as written.
    pub const ALL: [ParamStructure; 3] =
        [ParamStructure::ByName, ParamStructure::ByPosition, ParamStructure::Either];

    /// The text as written in a document.
    pub fn as_str(self) -> &'static str {
        match self {
            ParamStructure::ByName => "by-name",
            ParamStructure::ByPosition => "by-position",
            ParamStructure::Either => "either",
        }
    }
}

impl Document {
    /// How many members, at every level, this build has no name for (kept and re-emitted, but
    /// not understood): a document written by a newer accord has some.
    pub fn unknown_member_count(&self) -> usize {
        let namespaces = self.namespaces.iter().flat_map(|all| all.values());
        self.unknown.len()
            + self.wire.as_ref().map_or(0, Wire::unknown_member_count)
            + namespaces.map(Namespace::unknown_member_count).sum::<usize>()
    }
}

impl Namespace {
    fn unknown_member_count(&self) -> usize {
        let methods = self.methods.iter().flat_map(|all| all.values());
        let events = self.events.iter().flat_map(|all| all.values());
        let types = self.types.iter().flat_map(|all| all.values());
        self.unknown.len()
            + self.component.as_ref().map_or(0, |c| c.unknown.len())
            + self.wire.as_ref().map_or(0, Wire::unknown_member_count)
            + reserved_unknown(&self.reserved)
            + methods.map(Method::unknown_member_count).sum::<usize>()
            + events.map(|e| e.unknown.len() + e.payload.unknown_member_count()).sum::<usize>()
            + types.map(TypeNode::unknown_member_count).sum::<usize>()
    }
}

impl Method {
    fn unknown_member_count(&self) -> usize {
        let params = self.params.iter().flatten();
        let errors = self.errors.iter().flatten();
        let examples = self.examples.iter().flatten();
        self.unknown.len()
            + self.result.unknown_member_count()
            + params.map(|p| p.field.unknown_member_count()).sum::<usize>()
            + errors
                .map(|e| {
                    e.unknown.len() + e.data.as_ref().map_or(0, TypeNode::unknown_member_count)
                })
                .sum::<usize>()
            + examples.map(|x| x.unknown.len()).sum::<usize>()
            + self.links.iter().flat_map(|all| all.values()).map(|l| l.unknown.len()).sum::<usize>()
            + self.causes.iter().flatten().map(|c| c.unknown.len()).sum::<usize>()
    }
}

impl Field {
    pub(crate) fn unknown_member_count(&self) -> usize {
        self.unknown.len() + self.ty.unknown_member_count()
    }
}

pub(crate) fn reserved_unknown(reserved: &Option<Vec<Reserved>>) -> usize {
    reserved.iter().flatten().map(|r| r.unknown.len()).sum()
}
