//! A small bounded map of answers kept for later requests, the oldest dropped first: the
//! searched positions ([`crate::search`]) and the finished reviews ([`crate::jobs`]).

use std::collections::{HashMap, VecDeque};

/// At most `capacity` values by key, the oldest dropped first; a key kept already keeps its
/// first value (answers are exact: a later one is the same).
#[derive(Debug)]
pub struct Kept<V> {
    capacity: usize,
    values: HashMap<String, V>,
    order: VecDeque<String>,
}

impl<V: Clone> Kept<V> {
    /// Keeps at most `capacity` values (0: none).
    #[must_use]
    pub fn new(capacity: usize) -> Kept<V> {
        Kept {
            capacity,
            values: HashMap::new(),
            order: VecDeque::new(),
        }
    }

    /// The value kept for `key`, if any.
    #[must_use]
    pub fn get(&self, key: &str) -> Option<V> {
        self.values.get(key).cloned()
    }

    /// Keeps `value` for `key`, dropping the oldest values past the capacity.
    pub fn insert(&mut self, key: String, value: V) {
        if self.capacity == 0 || self.values.contains_key(&key) {
            return;
        }
        while self.values.len() >= self.capacity {
            match self.order.pop_front() {
                Some(old) => {
                    self.values.remove(&old);
                }
                None => break,
            }
        }
        self.order.push_back(key.clone());
        self.values.insert(key, value);
    }

    /// Values kept now.
    #[must_use]
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether nothing is kept.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_most_its_capacity_is_kept_the_oldest_dropped_first() {
        let mut kept = Kept::new(2);
        for n in 0..3 {
            kept.insert(format!("k{n}"), n);
        }
        assert_eq!(kept.len(), 2);
        assert!(kept.get("k0").is_none());
        assert_eq!(kept.get("k1"), Some(1));
        assert_eq!(kept.get("k2"), Some(2));
        // A key kept already is not added twice, and keeps its first value.
        kept.insert("k2".into(), 9);
        assert_eq!((kept.len(), kept.order.len()), (2, 2));
        assert_eq!(kept.get("k2"), Some(2));
        let mut none = Kept::new(0);
        none.insert("k".into(), 0);
        assert!(none.get("k").is_none() && none.is_empty());
    }
}
