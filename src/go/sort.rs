//! Go's `sort.Slice` and `sort.Sort` (the same pattern-defeating quicksort), step
//! for step, as in Go 1.21 and later (opm builds with Go 1.26). opm sorts related
//! images and render-graph's channel entries with it, so equal elements come out in
//! the order Go's algorithm leaves them, which a stable sort does not reproduce once
//! a slice is longer than twelve elements; and yaml.v2 sorts keys with a comparison
//! that is not a consistent order, where only Go's exact sequence of comparisons and
//! swaps gives Go's result.

/// Sorts `items` exactly as Go's `sort.Slice(items, less)` does.
pub(crate) fn slice_by<T>(items: &mut [T], less: impl Fn(&T, &T) -> bool) {
    let length = items.len();
    let mut sorter = Sorter { items, less };
    sorter.pdqsort(0, length, bit_length(length));
}

/// `bits.Len`: the number of bits needed to represent `value`.
fn bit_length(value: usize) -> usize {
    (usize::BITS - value.leading_zeros()) as usize
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Hint {
    Unknown,
    Increasing,
    Decreasing,
}

struct Sorter<'a, T, F> {
    items: &'a mut [T],
    less: F,
}

impl<T, F: Fn(&T, &T) -> bool> Sorter<'_, T, F> {
    fn less(&self, i: usize, j: usize) -> bool {
        (self.less)(&self.items[i], &self.items[j])
    }

    fn swap(&mut self, i: usize, j: usize) {
        self.items.swap(i, j);
    }

    fn insertion_sort(&mut self, a: usize, b: usize) {
        for i in a + 1..b {
            let mut j = i;
            while j > a && self.less(j, j - 1) {
                self.swap(j, j - 1);
                j -= 1;
            }
        }
    }

    fn sift_down(&mut self, lo: usize, hi: usize, first: usize) {
        let mut root = lo;
        loop {
            let mut child = 2 * root + 1;
            if child >= hi {
                return;
            }
            if child + 1 < hi && self.less(first + child, first + child + 1) {
                child += 1;
            }
            if !self.less(first + root, first + child) {
                return;
            }
            self.swap(first + root, first + child);
            root = child;
        }
    }

    fn heap_sort(&mut self, a: usize, b: usize) {
        let first = a;
        let hi = b - a;
        for i in (0..hi.div_ceil(2)).rev() {
            self.sift_down(i, hi, first);
        }
        for i in (0..hi).rev() {
            self.swap(first, first + i);
            self.sift_down(0, i, first);
        }
    }

    fn pdqsort(&mut self, mut a: usize, mut b: usize, mut limit: usize) {
        const MAX_INSERTION: usize = 12;
        let mut was_balanced = true;
        let mut was_partitioned = true;
        loop {
            let length = b - a;
            if length <= MAX_INSERTION {
                self.insertion_sort(a, b);
                return;
            }
            if limit == 0 {
                self.heap_sort(a, b);
                return;
            }
            if !was_balanced {
                self.break_patterns(a, b);
                limit -= 1;
            }
            let (mut pivot, mut hint) = self.choose_pivot(a, b);
            if hint == Hint::Decreasing {
                self.reverse_range(a, b);
                pivot = (b - 1) - (pivot - a);
                hint = Hint::Increasing;
            }
            if was_balanced
                && was_partitioned
                && hint == Hint::Increasing
                && self.partial_insertion_sort(a, b)
            {
                return;
            }
            if a > 0 && !self.less(a - 1, pivot) {
                a = self.partition_equal(a, b, pivot);
                continue;
            }
            let (mid, already_partitioned) = self.partition(a, b, pivot);
            was_partitioned = already_partitioned;
            let (left, right) = (mid - a, b - mid);
            let threshold = length / 8;
            if left < right {
                was_balanced = left >= threshold;
                self.pdqsort(a, mid, limit);
                a = mid + 1;
            } else {
                was_balanced = right >= threshold;
                self.pdqsort(mid + 1, b, limit);
                b = mid;
            }
        }
    }

    fn partition(&mut self, a: usize, b: usize, pivot: usize) -> (usize, bool) {
        self.swap(a, pivot);
        // `j` may step below `a + 1` (to `a`), never below `a`: signed arithmetic
        // is not needed.
        let (mut i, mut j) = (a + 1, b - 1);
        while i <= j && self.less(i, a) {
            i += 1;
        }
        while i <= j && !self.less(j, a) {
            j -= 1;
        }
        if i > j {
            self.swap(j, a);
            return (j, true);
        }
        self.swap(i, j);
        i += 1;
        j -= 1;
        loop {
            while i <= j && self.less(i, a) {
                i += 1;
            }
            while i <= j && !self.less(j, a) {
                j -= 1;
            }
            if i > j {
                break;
            }
            self.swap(i, j);
            i += 1;
            j -= 1;
        }
        self.swap(j, a);
        (j, false)
    }

    fn partition_equal(&mut self, a: usize, b: usize, pivot: usize) -> usize {
        self.swap(a, pivot);
        let (mut i, mut j) = (a + 1, b - 1);
        loop {
            while i <= j && !self.less(a, i) {
                i += 1;
            }
            while i <= j && self.less(a, j) {
                j -= 1;
            }
            if i > j {
                return i;
            }
            self.swap(i, j);
            i += 1;
            j -= 1;
        }
    }

    fn partial_insertion_sort(&mut self, a: usize, b: usize) -> bool {
        const MAX_STEPS: usize = 5;
        const SHORTEST_SHIFTING: usize = 50;
        let mut i = a + 1;
        for _ in 0..MAX_STEPS {
            while i < b && !self.less(i, i - 1) {
                i += 1;
            }
            if i == b {
                return true;
            }
            if b - a < SHORTEST_SHIFTING {
                return false;
            }
            self.swap(i, i - 1);
            // Go shifts down to index 1 (not `a + 1`), a quirk kept for its order.
            if i - a >= 2 {
                let mut j = i - 1;
                while j >= 1 && self.less(j, j - 1) {
                    self.swap(j, j - 1);
                    j -= 1;
                }
            }
            if b - i >= 2 {
                let mut j = i + 1;
                while j < b && self.less(j, j - 1) {
                    self.swap(j, j - 1);
                    j += 1;
                }
            }
        }
        false
    }

    fn break_patterns(&mut self, a: usize, b: usize) {
        let length = b - a;
        if length < 8 {
            return;
        }
        // Go's xorshift (the 64-bit shifts of Go 1.21+), seeded with the length.
        let mut random = length as u64;
        let modulus = 1usize << bit_length(length);
        let start = a + (length / 4) * 2 - 1;
        for index in start..=start + 2 {
            random ^= random << 13;
            random ^= random >> 7;
            random ^= random << 17;
            // Go converts to `uint` (64 bits here) before masking.
            let mut other = (random as usize) & (modulus - 1);
            if other >= length {
                other -= length;
            }
            self.swap(index, a + other);
        }
    }

    fn choose_pivot(&mut self, a: usize, b: usize) -> (usize, Hint) {
        const SHORTEST_NINTHER: usize = 50;
        const MAX_SWAPS: usize = 4 * 3;
        let length = b - a;
        let mut swaps = 0;
        let mut first = a + length / 4;
        let mut middle = a + length / 4 * 2;
        let mut last = a + length / 4 * 3;
        if length >= 8 {
            if length >= SHORTEST_NINTHER {
                first = self.median(first - 1, first, first + 1, &mut swaps);
                middle = self.median(middle - 1, middle, middle + 1, &mut swaps);
                last = self.median(last - 1, last, last + 1, &mut swaps);
            }
            middle = self.median(first, middle, last, &mut swaps);
        }
        let hint = match swaps {
            0 => Hint::Increasing,
            MAX_SWAPS => Hint::Decreasing,
            _ => Hint::Unknown,
        };
        (middle, hint)
    }

    fn order2(&self, a: usize, b: usize, swaps: &mut usize) -> (usize, usize) {
        if self.less(b, a) {
            *swaps += 1;
            (b, a)
        } else {
            (a, b)
        }
    }

    fn median(&self, a: usize, b: usize, c: usize, swaps: &mut usize) -> usize {
        let (a, b) = self.order2(a, b, swaps);
        let (b, _) = self.order2(b, c, swaps);
        let (_, b) = self.order2(a, b, swaps);
        b
    }

    fn reverse_range(&mut self, a: usize, b: usize) {
        let (mut i, mut j) = (a, b - 1);
        while i < j {
            self.swap(i, j);
            i += 1;
            j -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sorts pairs by their first element only and returns the second elements, to
    /// see where ties end up.
    fn tie_order(keys: &[u32]) -> Vec<usize> {
        let mut items: Vec<(u32, usize)> = keys.iter().copied().zip(0..).collect();
        slice_by(&mut items, |x, y| x.0 < y.0);
        items.into_iter().map(|(_, index)| index).collect()
    }

    #[test]
    fn sorts_like_any_sort() {
        let mut next = crate::testing::choices(7);
        for length in [0, 1, 2, 11, 12, 13, 49, 50, 51, 200, 1000] {
            let mut values: Vec<usize> = (0..length).map(|_| next(17)).collect();
            let mut expected = values.clone();
            expected.sort_unstable();
            slice_by(&mut values, |a, b| a < b);
            assert_eq!(values, expected, "length {length}");
            let mut descending: Vec<usize> = (0..length).rev().collect();
            slice_by(&mut descending, |a, b| a < b);
            assert!(descending.windows(2).all(|pair| pair[0] <= pair[1]));
        }
    }

    #[test]
    fn short_slices_are_sorted_stably_by_insertion() {
        assert_eq!(tie_order(&[1, 0, 1, 0]), vec![1, 3, 0, 2]);
        assert_eq!(tie_order(&[3, 1, 3, 1, 2, 3]), vec![1, 3, 4, 0, 2, 5]);
    }

    #[test]
    fn long_slices_of_ties_are_reordered_as_go_does() {
        // Worked by hand from Go's algorithm: 13 equal keys get an "increasing"
        // pivot hint and the partial insertion sort finds them in order, so they
        // stay put; 20 keys alternating 1, 0 take the partition path, which does
        // not keep ties in their first order.
        assert_eq!(tie_order(&[5; 13]), (0..13).collect::<Vec<_>>());
        let alternating: Vec<u32> = (0..20).map(|index| 1 - index % 2).collect();
        let order = tie_order(&alternating);
        let zeros: Vec<usize> = order[..10].to_vec();
        assert!(zeros.iter().all(|index| index % 2 == 1));
        assert_ne!(
            zeros,
            (0..10).map(|index| 2 * index + 1).collect::<Vec<_>>()
        );
    }

    #[test]
    fn heap_sort_sorts() {
        let mut values = vec![5, 3, 9, 1, 7, 2, 8];
        let length = values.len();
        let mut sorter = Sorter {
            items: &mut values,
            less: |a: &i32, b: &i32| a < b,
        };
        sorter.heap_sort(0, length);
        assert_eq!(values, vec![1, 2, 3, 5, 7, 8, 9]);
    }

    #[test]
    fn break_patterns_swaps_with_go_xorshift_positions() {
        // length 16: seed 16; Go's xorshift (<<13, >>7, <<17) gives, masked to 5
        // bits and folded below 16, the partners of positions 7, 8 and 9.
        let mut random = 16_u64;
        let mut partners = Vec::new();
        for _ in 0..3 {
            random ^= random << 13;
            random ^= random >> 7;
            random ^= random << 17;
            let mut other = (random as usize) & 31;
            if other >= 16 {
                other -= 16;
            }
            partners.push(other);
        }
        let mut values: Vec<usize> = (0..16).collect();
        let mut sorter = Sorter {
            items: &mut values,
            less: |a: &usize, b: &usize| a < b,
        };
        sorter.break_patterns(0, 16);
        let mut expected: Vec<usize> = (0..16).collect();
        for (index, other) in (7..=9).zip(partners) {
            expected.swap(index, other);
        }
        assert_eq!(values, expected);
    }
}
