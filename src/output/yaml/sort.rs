//! Go's `sort.Sort` (pattern-defeating quicksort, Go 1.19 and later), step for step.
//! yaml.v2's key order is not transitive (`"9" < "10" < "1a"` yet `"1a" < "9"`), so
//! only the same sequence of comparisons and swaps gives the same order as Go's.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Hint {
    Unknown,
    Increasing,
    Decreasing,
}

/// Sorts `data` as `sort.Sort` would with `less` as the `Less` method.
pub(super) fn sort<T>(data: &mut [T], less: impl Fn(&T, &T) -> bool) {
    let length = data.len();
    if length <= 1 {
        return;
    }
    let limit = bit_length(length);
    Sorter { data, less }.pdqsort(0, length, limit);
}

/// Go's `bits.Len`: the number of bits needed to represent `value`.
fn bit_length(value: usize) -> u32 {
    usize::BITS - value.leading_zeros()
}

struct Sorter<'d, T, F> {
    data: &'d mut [T],
    less: F,
}

impl<T, F: Fn(&T, &T) -> bool> Sorter<'_, T, F> {
    fn less(&self, i: usize, j: usize) -> bool {
        (self.less)(&self.data[i], &self.data[j])
    }

    fn swap(&mut self, i: usize, j: usize) {
        self.data.swap(i, j);
    }

    fn pdqsort(&mut self, mut a: usize, mut b: usize, mut limit: u32) {
        const MAX_INSERTION: usize = 12;
        let (mut was_balanced, mut was_partitioned) = (true, true);
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
            let (middle, already_partitioned) = self.partition(a, b, pivot);
            was_partitioned = already_partitioned;
            let (left, right) = (middle - a, b - middle);
            let threshold = length / 8;
            if left < right {
                was_balanced = left >= threshold;
                self.pdqsort(a, middle, limit);
                a = middle + 1;
            } else {
                was_balanced = right >= threshold;
                self.pdqsort(middle + 1, b, limit);
                b = middle;
            }
        }
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

    fn sift_down(&mut self, low: usize, high: usize, first: usize) {
        let mut root = low;
        loop {
            let mut child = 2 * root + 1;
            if child >= high {
                return;
            }
            if child + 1 < high && self.less(first + child, first + child + 1) {
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
        let high = b - a;
        for i in (0..=(high - 1) / 2).rev() {
            self.sift_down(i, high, a);
        }
        for i in (0..high).rev() {
            self.swap(a, a + i);
            self.sift_down(0, i, a);
        }
    }

    /// Moves elements below the pivot left of it; says whether nothing moved.
    fn partition(&mut self, a: usize, b: usize, pivot: usize) -> (usize, bool) {
        self.swap(a, pivot);
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
            // Go walks down to index 1 of the whole slice here, not to `a + 1`.
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
        let mut random = length as u64;
        let modulus = 1usize << bit_length(length);
        let middle = a + (length / 4) * 2;
        for index in middle - 1..=middle + 1 {
            random ^= random << 13;
            random ^= random >> 7;
            random ^= random << 17;
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
        let mut quarter = a + length / 4;
        let mut half = a + length / 4 * 2;
        let mut three_quarters = a + length / 4 * 3;
        if length >= 8 {
            if length >= SHORTEST_NINTHER {
                quarter = self.median(quarter - 1, quarter, quarter + 1, &mut swaps);
                half = self.median(half - 1, half, half + 1, &mut swaps);
                three_quarters = self.median(
                    three_quarters - 1,
                    three_quarters,
                    three_quarters + 1,
                    &mut swaps,
                );
            }
            half = self.median(quarter, half, three_quarters, &mut swaps);
        }
        let hint = match swaps {
            0 => Hint::Increasing,
            MAX_SWAPS => Hint::Decreasing,
            _ => Hint::Unknown,
        };
        (half, hint)
    }

    fn order(&self, a: usize, b: usize, swaps: &mut usize) -> (usize, usize) {
        if self.less(b, a) {
            *swaps += 1;
            (b, a)
        } else {
            (a, b)
        }
    }

    fn median(&self, first: usize, second: usize, third: usize, swaps: &mut usize) -> usize {
        let (low, middle) = self.order(first, second, swaps);
        let (middle, _) = self.order(middle, third, swaps);
        let (_, middle) = self.order(low, middle, swaps);
        middle
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
    use super::sort;

    #[test]
    fn sorts_consistent_orders_like_any_sort() {
        let mut state = 1u64;
        for length in [0, 1, 2, 12, 13, 49, 50, 51, 200, 1000] {
            let mut values: Vec<u64> = (0..length)
                .map(|_| {
                    state = state
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1);
                    state >> 40
                })
                .collect();
            let mut expected = values.clone();
            expected.sort_unstable();
            sort(&mut values, |a, b| a < b);
            assert_eq!(values, expected, "{length}");
            let mut descending: Vec<usize> = (0..length).rev().collect();
            sort(&mut descending, |a, b| a < b);
            assert!(descending.windows(2).all(|pair| pair[0] <= pair[1]));
        }
    }
}
