//! Go's `sort.Slice`: pattern-defeating quicksort, not stable. opm sorts related
//! images with it, so entries with equal images come out in the order Go's
//! algorithm leaves them, which a stable sort does not reproduce once a slice is
//! longer than twelve entries. The steps (and so the final order of equal
//! elements) follow Go 1.19+ `sort/zsortfunc.go`.

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
        // Go's xorshift, seeded with the length.
        let mut random = length as u64;
        let modulus = 1usize << bit_length(length);
        let start = a + (length / 4) * 2 - 1;
        for index in start..=start + 2 {
            random ^= random << 13;
            random ^= random >> 17;
            random ^= random << 5;
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

    fn sorted(mut items: Vec<(u32, usize)>) -> Vec<(u32, usize)> {
        slice_by(&mut items, |a, b| a.0 < b.0);
        items
    }

    #[test]
    fn sorts_by_key() {
        let mut state = 7_u64;
        let items: Vec<(u32, usize)> = (0..1000)
            .map(|index| {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1);
                ((state >> 40) as u32 % 50, index)
            })
            .collect();
        let result = sorted(items);
        assert!(result.windows(2).all(|pair| pair[0].0 <= pair[1].0));
        assert_eq!(result.len(), 1000);
    }

    #[test]
    fn short_slices_are_stable() {
        let items: Vec<(u32, usize)> = [3, 1, 3, 1, 2, 3].iter().copied().zip(0..).collect();
        assert_eq!(
            sorted(items),
            [(1, 1), (1, 3), (2, 4), (3, 0), (3, 2), (3, 5)]
        );
    }
}
