//! Whether a property value's stored text certainly decodes into its Go type,
//! read straight from the text: no tree is built, nothing is copied. Catalogs are
//! valid far more often than not, and decoding every `olm.csv.metadata` and
//! `olm.bundle.object` into a tree only to find nothing wrong was a third of the
//! time `fbc serve` and `fbc validate` took on a community catalog. The answer is
//! one-sided: `false` (a mismatch, or anything this reader is unsure of, such as
//! a number it cannot place) sends the value to the exact decoder, which has Go's verdict and
//! message.

use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, Error as _, IgnoredAny, MapAccess, SeqAccess};
use serde_json::Value;

use super::{GoStruct, Known};
use crate::bundle::migrate::schema::{self, Kind};
use crate::model::go_decode::match_field;

/// Whether `text` (one JSON value) decodes into `known`'s type without error.
pub(super) fn fits(known: &Known, text: &str) -> bool {
    let mut reader = serde_json::Deserializer::from_str(text);
    Shape::of(known).deserialize(&mut reader).is_ok() && reader.end().is_ok()
}

/// [`fits`] for a value already decoded.
pub(super) fn fits_value(known: &Known, value: &Value) -> bool {
    Shape::of(known).deserialize(value).is_ok()
}

/// What a value must be.
#[derive(Clone, Copy)]
enum Shape {
    /// One of the small property structs, of string and `[]byte` fields.
    Small(&'static GoStruct),
    /// A field of the CSV types `olm.csv.metadata` is made of.
    Csv(Kind),
    /// A field of a small struct: a string or a `[]byte` (loading decoded every
    /// `olm.bundle.object`'s base64 already), so a string.
    SmallField,
}

/// The mismatch itself is the exact decoder's to describe.
#[derive(Debug)]
struct Unfit;

impl fmt::Display for Unfit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("does not fit")
    }
}

impl<'de> DeserializeSeed<'de> for Shape {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        if let Shape::Csv(Kind::Raw) = self {
            // A `json.RawMessage` takes any JSON.
            return deserializer.deserialize_ignored_any(IgnoredAny).map(|_| ());
        }
        deserializer.deserialize_any(self)
    }
}

impl Shape {
    fn of(known: &Known) -> Shape {
        match known {
            Known::Struct(go_struct) => Shape::Small(go_struct),
            Known::CsvMetadata => Shape::Csv(Kind::Struct(&schema::CSV_METADATA)),
        }
    }

    fn takes_strings(self) -> bool {
        matches!(
            self,
            Shape::Csv(Kind::Str | Kind::NamedStr(_)) | Shape::SmallField
        )
    }

    /// The struct fields a map's keys are matched against, and what each holds.
    fn fields(self) -> Option<Vec<(&'static str, Shape)>> {
        match self {
            Shape::Small(go_struct) => Some(
                go_struct
                    .fields
                    .iter()
                    .map(|(name, _)| (*name, Shape::SmallField))
                    .collect(),
            ),
            Shape::Csv(Kind::Struct(schema)) => Some(
                schema
                    .fields
                    .iter()
                    .map(|field| (field.name, Shape::Csv(field.kind)))
                    .collect(),
            ),
            _ => None,
        }
    }
}

impl<'de> serde::de::Visitor<'de> for Shape {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a value of the property's Go type")
    }

    // Null decodes into every Go type (a zero value or no change).
    fn visit_unit<E: serde::de::Error>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_str<E: serde::de::Error>(self, _: &str) -> Result<(), E> {
        if self.takes_strings() {
            Ok(())
        } else {
            Err(E::custom(Unfit))
        }
    }

    fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<(), E> {
        match self {
            Shape::Csv(Kind::Bool) => Ok(()),
            _ => Err(E::custom(Unfit)),
        }
    }

    fn visit_i64<E: serde::de::Error>(self, number: i64) -> Result<(), E> {
        match (self, i32::try_from(number)) {
            (Shape::Csv(Kind::Int32), Ok(_)) => Ok(()),
            _ => Err(E::custom(Unfit)),
        }
    }

    fn visit_u64<E: serde::de::Error>(self, number: u64) -> Result<(), E> {
        match (self, i32::try_from(number)) {
            (Shape::Csv(Kind::Int32), Ok(_)) => Ok(()),
            _ => Err(E::custom(Unfit)),
        }
    }

    fn visit_f64<E: serde::de::Error>(self, number: f64) -> Result<(), E> {
        // Catalog numbers are float64: an integral one in range fits an int32.
        let integral =
            number.fract() == 0.0 && (f64::from(i32::MIN)..=f64::from(i32::MAX)).contains(&number);
        match self {
            Shape::Csv(Kind::Int32) if integral => Ok(()),
            _ => Err(E::custom(Unfit)),
        }
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<(), A::Error> {
        let item = match self {
            Shape::Csv(Kind::Strings) => Shape::Csv(Kind::Str),
            Shape::Csv(Kind::List(schema)) => Shape::Csv(Kind::Struct(schema)),
            _ => return Err(A::Error::custom(Unfit)),
        };
        while items.next_element_seed(item)?.is_some() {}
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        if let Shape::Csv(Kind::StringMap) = self {
            while map.next_key::<IgnoredAny>()?.is_some() {
                map.next_value_seed(Shape::Csv(Kind::Str))?;
            }
            return Ok(());
        }
        let fields = self.fields().ok_or_else(|| A::Error::custom(Unfit))?;
        let names: Vec<&'static str> = fields.iter().map(|(name, _)| *name).collect();
        while let Some(field) = map.next_key_seed(Field(&names))? {
            match fields.iter().find(|(name, _)| Some(*name) == field) {
                Some((_, shape)) => map.next_value_seed(*shape)?,
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(())
    }
}

/// A map key: the struct field it decodes into, if any (Go's matching).
struct Field<'a>(&'a [&'static str]);

impl<'de> DeserializeSeed<'de> for Field<'_> {
    type Value = Option<&'static str>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl serde::de::Visitor<'_> for Field<'_> {
    type Value = Option<&'static str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_str<E: serde::de::Error>(self, key: &str) -> Result<Self::Value, E> {
        Ok(match_field(key, self.0))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::super::{known, parse};
    use super::{fits, fits_value};
    use crate::model::property::Property;

    /// `fits` never says yes where the exact decoder finds an error, and says the
    /// same of the value's text as of the value.
    fn agrees(kind: &str, value: &Value) -> bool {
        let known = known(kind).expect("a known type");
        let property = Property::new(kind, Some(value));
        let text = property.stored_text().expect("a loaded value");
        let fits = fits(&known, &text);
        let exact = parse(std::slice::from_ref(&property)).is_ok();
        assert!(!fits || exact, "{kind} {value}: fits but fails");
        assert_eq!(fits, fits_value(&known, value), "{kind} {value}");
        fits
    }

    #[test]
    fn valid_values_fit() {
        let metadata = json!({
            "displayName": "x", "keywords": ["a", null], "labels": {"a": "b", "c": null},
            "provider": {"name": "p", "url": null}, "maturity": "alpha",
            "installModes": [{"type": "OwnNamespace", "supported": true}, null],
            "apiServiceDefinitions": {"owned": [{"name": "a", "containerPort": 8080,
                "specDescriptors": [{"path": "p", "value": {"any": [1, {"x": null}]}}]}]},
            "customresourcedefinitions": {"owned": [{"name": "c", "resources": []}]},
            "Annotations": {"k": "v"}, "unknown": {"deep": [true]}, "minKubeVersion": null
        });
        assert!(agrees("olm.csv.metadata", &metadata));
        assert!(agrees("olm.csv.metadata", &Value::Null));
        assert!(agrees(
            "olm.bundle.object",
            &json!({"data": "eyJ9", "x": 1})
        ));
        assert!(agrees(
            "olm.gvk",
            &json!({"group": "g", "Kind": "K", "version": null})
        ));
        assert!(agrees("olm.channel", &json!({"channelName": "c"})));
    }

    #[test]
    fn mismatches_do_not_fit() {
        let cases = [
            ("olm.csv.metadata", json!({"keywords": "a"})),
            ("olm.csv.metadata", json!({"labels": {"a": 1}})),
            ("olm.csv.metadata", json!({"provider": {"name": true}})),
            (
                "olm.csv.metadata",
                json!({"installModes": [{"supported": "yes"}]}),
            ),
            ("olm.csv.metadata", json!({"installModes": [5]})),
            (
                "olm.csv.metadata",
                json!({"apiServiceDefinitions": {"owned": [{"containerPort": 1.5}]}}),
            ),
            (
                "olm.csv.metadata",
                json!({"apiServiceDefinitions": {"owned": [{"containerPort": 1e10}]}}),
            ),
            ("olm.csv.metadata", json!([])),
            ("olm.csv.metadata", json!("x")),
            ("olm.bundle.object", json!({"DATA": 1})),
            ("olm.gvk", json!("x")),
            ("olm.channel", json!({"channelName": []})),
        ];
        for (kind, value) in cases {
            assert!(!agrees(kind, &value), "{kind} {value}");
        }
    }

    #[test]
    fn integral_numbers_in_range_fit_int32() {
        for number in [json!(8080), json!(-5), json!(8080.0), json!(2_147_483_647)] {
            let value = json!({"apiServiceDefinitions": {"owned": [{"containerPort": number}]}});
            assert!(agrees("olm.csv.metadata", &value), "{number}");
        }
        let value =
            json!({"apiServiceDefinitions": {"owned": [{"containerPort": 2_147_483_648_u64}]}});
        assert!(!agrees("olm.csv.metadata", &value));
    }

    #[test]
    fn raw_values_take_any_json_however_deep() {
        let mut deep = json!(1);
        for _ in 0..200 {
            deep = json!([deep, {"k": null}]);
        }
        let value =
            json!({"apiServiceDefinitions": {"owned": [{"specDescriptors": [{"value": deep}]}]}});
        assert!(agrees("olm.csv.metadata", &value));
    }

    /// Every known property of the corpus's catalogs: where `fits` answers, the
    /// exact decoder agrees; and on these valid catalogs it answers for nearly all.
    #[test]
    fn corpus_properties_agree() {
        let root =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/catalogs");
        if !root.is_dir() {
            assert!(
                std::env::var_os("CI").is_none(),
                "corpus not found at {}",
                root.display()
            );
            eprintln!("SKIPPED: corpus not found at {}", root.display());
            return;
        }
        let (mut checked, mut fitted) = (0, 0);
        for entry in std::fs::read_dir(&root).expect("the corpus's catalogs") {
            let catalog = crate::catalog::load_directory(&entry.expect("an entry").path())
                .expect("a corpus catalog loads");
            for bundle in &catalog.bundles {
                for property in &*bundle.item.properties {
                    let (Some(known), Some(text)) = (known(&property.kind), property.stored_text())
                    else {
                        continue;
                    };
                    let fits = fits(&known, &text);
                    assert!(!fits || parse(std::slice::from_ref(property)).is_ok());
                    let value = property.value().expect("a value");
                    assert_eq!(fits, fits_value(&known, &value), "{}", property.kind);
                    checked += 1;
                    fitted += usize::from(fits);
                }
            }
        }
        eprintln!("fits answered for {fitted} of {checked} known properties");
        assert!(checked > 0 && fitted == checked, "{fitted} of {checked}");
    }
}
