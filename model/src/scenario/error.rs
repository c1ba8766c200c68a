//! Why a scenario is refused: the field's path, serde's or the validator's message, and the
//! limit the field went past.

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    /// The JSON path of the offending field (e.g. `config.relays`).
    pub field: String,
    pub message: String,
    /// The limit the field went past, when that is why (`faults`: at most
    /// [`MAX_FAULTS`](super::MAX_FAULTS)): the page says the number in the reader's language.
    pub limit: Option<u64>,
}

impl std::fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}
