//! A LIST response in JSON form, and the list metadata a Table shares.

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::value::RawValue;

/// `metadata` of a list or a Table.
#[derive(Debug, Default, Deserialize)]
pub struct ListMeta<'a> {
    #[serde(borrow, default, rename = "resourceVersion")]
    pub resource_version: Cow<'a, str>,
    #[serde(borrow, default, rename = "continue")]
    pub continue_token: Option<Cow<'a, str>>,
}

/// A LIST response in JSON form: items borrowed, untouched.
#[derive(Debug, Deserialize)]
pub struct ListBody<'a> {
    #[serde(borrow, default)]
    pub metadata: ListMeta<'a>,
    #[serde(borrow, default, deserialize_with = "null_as_empty")]
    pub items: Vec<&'a RawValue>,
}

pub(super) fn null_as_empty<'de, D, T>(deserializer: D) -> Result<Vec<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    Ok(Option::<Vec<T>>::deserialize(deserializer)?.unwrap_or_default())
}
