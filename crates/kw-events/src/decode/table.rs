//! A server-printed `Table` (a LIST response, or one watch event's object) and its rows.

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::decode::fields::{plain_string, raw_value, Fields};
use crate::decode::head::{checked_object, object_head, scanned_meta, ObjectHead};
use crate::decode::list::{null_as_empty, ListMeta};
use crate::decode::scan::Scanner;
use kw_wire::TableColumnDefinition;

/// One row of a server-printed `Table`.
#[derive(Debug, Deserialize)]
pub struct RowBody<'a> {
    /// The cells as the server sent them, decoded by `printed_cells`: a row may hold millions of
    /// cells (a hostile server's), and only those under a column are ever printed.
    #[serde(borrow, default)]
    pub cells: Option<&'a RawValue>,
    #[serde(borrow, default)]
    pub object: Option<&'a RawValue>,
    /// The object's head, when the scanner read it while checking the frame.
    #[serde(skip)]
    pub scanned_head: Option<ObjectHead<'a>>,
}

impl<'a> RowBody<'a> {
    /// The row object's head: as read while the frame was checked, or read now.
    pub fn head(&self) -> Result<ObjectHead<'a>, serde_json::Error> {
        match &self.scanned_head {
            Some(head) => Ok(head.clone()),
            None => object_head(self.object.unwrap_or(RawValue::NULL).get()),
        }
    }

    /// The row's size as `--max-object-size` counts it: its cells and its object.
    pub fn size(&self) -> usize {
        let len = |raw: Option<&RawValue>| raw.map_or(0, |raw| raw.get().len());
        len(self.cells).saturating_add(len(self.object))
    }

    /// The first `columns` cells, decoded; the rest are checked and skipped without being built
    /// (kubectl drops cells beyond the column definitions too), so memory follows what is printed.
    pub fn printed_cells(
        &self,
        columns: usize,
    ) -> Result<Vec<serde_json::Value>, serde_json::Error> {
        use serde::de::DeserializeSeed;
        let Some(raw) = self.cells else {
            return Ok(Vec::new());
        };
        let mut deserializer = serde_json::Deserializer::from_str(raw.get());
        let cells = FirstCells(columns).deserialize(&mut deserializer)?;
        deserializer.end()?;
        Ok(cells)
    }
}

/// Reads a JSON array keeping its first `.0` elements and skipping the others.
struct FirstCells(usize);

impl<'de> serde::de::DeserializeSeed<'de> for FirstCells {
    type Value = Vec<serde_json::Value>;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> serde::de::Visitor<'de> for FirstCells {
    type Value = Vec<serde_json::Value>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an array of cells")
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        // Never trust a length the input gives: grow with what is actually kept.
        let mut cells = Vec::with_capacity(self.0.min(64));
        while cells.len() < self.0 {
            match seq.next_element()? {
                Some(cell) => cells.push(cell),
                None => return Ok(cells),
            }
        }
        while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
        Ok(cells)
    }
}

/// A `meta.k8s.io/v1` `Table`: a LIST response, or one watch event's object.
#[derive(Debug, Deserialize)]
pub struct TableBody<'a> {
    #[serde(borrow, default)]
    pub kind: Cow<'a, str>,
    #[serde(borrow, default)]
    pub metadata: ListMeta<'a>,
    #[serde(default, rename = "columnDefinitions")]
    pub column_definitions: Option<Vec<TableColumnDefinition>>,
    #[serde(borrow, default, deserialize_with = "null_as_empty")]
    pub rows: Vec<RowBody<'a>>,
}

/// The object starting at `pos`, read in one walk as a watch event's object in table mode:
/// its head, the Table it is when its kind says so (its rows are read on the way, whatever the
/// kind, as the kind may come after them), and where it ends. `None` leaves it to serde_json.
pub(super) fn scanned_table_or_head<'a>(
    scanner: &Scanner<'a>,
    pos: usize,
) -> Option<(ObjectHead<'a>, Option<TableBody<'a>>, usize)> {
    let mut fields = Fields::<5>::new(scanner, pos)?;
    let mut head = ObjectHead::default();
    let (mut continue_token, mut columns, mut rows) = (None, None, Vec::new());
    let slot = |key: &str| match key {
        "kind" => Some(0),
        "apiVersion" => Some(1),
        "metadata" => Some(2),
        "columnDefinitions" => Some(3),
        "rows" => Some(4),
        _ => None,
    };
    while let Some((field, value)) = fields.next(slot)? {
        let end = match field {
            2 => {
                let (metadata, token, end) = scanned_meta(scanner, value)?;
                head.metadata = metadata;
                continue_token = token;
                end
            }
            4 => {
                let (read, end) = scanned_rows(scanner, value)?;
                rows = read;
                end
            }
            _ => {
                let end = scanner.value_end(value).ok()?;
                match field {
                    0 => head.kind = Cow::Borrowed(plain_string(scanner, value, end)?),
                    1 => head.api_version = Cow::Borrowed(plain_string(scanner, value, end)?),
                    // Decoded once the kind says this is a Table.
                    _ => columns = Some(scanner.slice(value, end).ok()?),
                }
                end
            }
        };
        fields.skip_to(end);
    }
    let table = if head.kind == "Table" {
        Some(TableBody {
            kind: head.kind.clone(),
            metadata: ListMeta {
                resource_version: head.metadata.resource_version.clone(),
                continue_token: continue_token.map(Cow::Borrowed),
            },
            column_definitions: match columns {
                Some(text) => serde_json::from_str(text).ok()?,
                None => None,
            },
            rows,
        })
    } else {
        None
    };
    Some((head, table, fields.end()))
}

/// A Table's `rows` (an array of rows, or null) starting at `pos`, and where it ends.
fn scanned_rows<'a>(scanner: &Scanner<'a>, pos: usize) -> Option<(Vec<RowBody<'a>>, usize)> {
    let mut rows = Vec::new();
    if scanner.byte(pos) == Some(b'n') {
        return Some((rows, scanner.value_end(pos).ok()?));
    }
    let slot = |key: &str| match key {
        "cells" => Some(0),
        "object" => Some(1),
        _ => None,
    };
    let mut elements = scanner.elements(pos).ok()?;
    while let Some(start) = scanner.element(&mut elements).ok()? {
        let mut fields = Fields::<2>::new(scanner, start)?;
        let (mut cells, mut object, mut head) = (None, None, None);
        while let Some((field, value)) = fields.next(slot)? {
            let end = if field == 1 {
                let (read, end) = checked_object(scanner, value)?;
                let text = scanner.slice(value, end).ok()?;
                object = if text == "null" {
                    None
                } else {
                    Some(raw_value(text)?)
                };
                head = read;
                end
            } else {
                let end = scanner.value_end(value).ok()?;
                let text = scanner.slice(value, end).ok()?;
                cells = (text != "null").then(|| raw_value(text)).flatten();
                end
            };
            fields.skip_to(end);
        }
        rows.push(RowBody {
            cells,
            object,
            scanned_head: head,
        });
        elements.skip_to(fields.end());
    }
    Some((rows, elements.end()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_tables_with_and_without_columns() {
        let with = br#"{"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"7"},"columnDefinitions":[{"name":"Name","type":"string","format":"name","description":"","priority":0}],"rows":[{"cells":["a"],"object":{"metadata":{"name":"a"}}}]}"#;
        let t: TableBody = serde_json::from_slice(with).unwrap();
        assert_eq!(t.column_definitions.unwrap()[0].name, "Name");
        assert_eq!(t.rows[0].printed_cells(1).unwrap(), ["a"]);
        let without = br#"{"kind":"Table","metadata":{"resourceVersion":"8"},"columnDefinitions":null,"rows":null}"#;
        let t: TableBody = serde_json::from_slice(without).unwrap();
        assert!(t.column_definitions.is_none());
        assert!(t.rows.is_empty());
    }

    #[test]
    fn only_the_cells_under_a_column_are_built() {
        let frame = br#"{"kind":"Table","rows":[{"cells":["a",1,{"x":[true]},"skipped",[2]],"object":null}]}"#;
        let t: TableBody = serde_json::from_slice(frame).unwrap();
        let row = &t.rows[0];
        assert_eq!(
            row.printed_cells(2).unwrap(),
            [serde_json::json!("a"), 1.into()]
        );
        assert_eq!(row.printed_cells(9).unwrap().len(), 5);
        assert_eq!(row.size(), r#"["a",1,{"x":[true]},"skipped",[2]]"#.len());
        // Skipped cells are still checked: a row is valid JSON or an error, whatever is shown.
        let bad: TableBody = serde_json::from_str(r#"{"rows":[{"cells":"a"}]}"#).unwrap();
        assert!(bad.rows[0].printed_cells(1).is_err());
        let none: TableBody = serde_json::from_str(r#"{"rows":[{"cells":null}]}"#).unwrap();
        assert!(none.rows[0].printed_cells(1).unwrap().is_empty());
    }
}
