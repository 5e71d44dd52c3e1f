//! Typed arrays in anonymous huge-page memory ([`huge_page_memory`]): for the large derived
//! tables that the searches read at random (the corner successor words, the coset solver's
//! phase-1 masks and bitmaps; the first two are also kept in files, [`super::derived`]). In
//! 4 KB pages nearly every random read of such a table would also miss the TLB.
//!
//! An array is written while it is a [`HugeArray`] (the memory comes zeroed) and may then be
//! made read-only ([`HugeArray::freeze`]), after which a stray write faults instead of
//! corrupting a table. This type holds the `unsafe` cast from bytes to `T`, so these tables need
//! none of their own (the coset bitmap's view of a page as 64-bit words, `words64`, is a
//! different cast and stays there).

use std::marker::PhantomData;
use std::sync::atomic::{AtomicU8, AtomicU16};

use super::table::huge_page_memory;

/// Element types for which all-zero bytes are a valid value and every byte pattern the array
/// may hold is valid too (plain integers and their atomics), aligned to at most a page.
///
/// # Safety
/// The type must have no padding, no invalid bit patterns and alignment at most 4096.
pub unsafe trait Plain: Sized {}
// SAFETY: integers and their atomics have no padding and no invalid values.
unsafe impl Plain for u32 {}
// SAFETY: as above.
unsafe impl Plain for u64 {}
// SAFETY: as above.
unsafe impl Plain for AtomicU16 {}
// SAFETY: as above.
unsafe impl Plain for AtomicU8 {}

/// `len` values of `T` in writable huge-page memory, all zero at first. Dereferences to
/// `[T]`. The kernel gives the memory on first touch, so an array that is mostly never written
/// costs only address space.
pub struct HugeArray<T: Plain> {
    map: memmap2::MmapMut,
    /// The mapping's start, taken from a mutable borrow, so that writes through shared
    /// references (atomics) and through `deref_mut` are derived from it.
    ptr: *mut T,
    len: usize,
}

// SAFETY: the array owns its mapping as a `Vec<T>` owns its buffer; `ptr` only points into it.
unsafe impl<T: Plain + Send> Send for HugeArray<T> {}
// SAFETY: as above: shared access gives `&[T]`, which is `Sync` when `T` is.
unsafe impl<T: Plain + Sync> Sync for HugeArray<T> {}

/// A [`HugeArray`] made read-only. Dereferences to `[T]`.
pub struct FrozenArray<T: Plain> {
    map: memmap2::Mmap,
    len: usize,
    _t: PhantomData<T>,
}

impl<T: Plain> HugeArray<T> {
    /// `len` zero values.
    pub fn zeroed(len: usize) -> std::io::Result<HugeArray<T>> {
        let bytes = len.checked_mul(size_of::<T>()).ok_or_else(|| {
            std::io::Error::new(std::io::ErrorKind::OutOfMemory, "array size overflows")
        })?;
        let mut map = huge_page_memory(bytes)?;
        let ptr = map.as_mut_ptr().cast();
        Ok(HugeArray { map, ptr, len })
    }

    /// The same values, in memory that faults on a write.
    pub fn freeze(self) -> std::io::Result<FrozenArray<T>> {
        Ok(FrozenArray {
            map: self.map.make_read_only()?,
            len: self.len,
            _t: PhantomData,
        })
    }
}

impl<T: Plain> FrozenArray<T> {
    /// The first `len` values of `T` held in read-only memory `map` (huge-page memory that a
    /// table file was read into, [`super::file::load_in_huge_pages`]).
    ///
    /// # Panics
    /// If `map` holds fewer than `len` values or is not aligned for `T`.
    pub fn from_map(map: memmap2::Mmap, len: usize) -> FrozenArray<T> {
        assert!(
            map.len() >= len * size_of::<T>(),
            "too few bytes for the array"
        );
        assert!(map.as_ptr().cast::<T>().is_aligned(), "misaligned array");
        FrozenArray {
            map,
            len,
            _t: PhantomData,
        }
    }

    /// The values' bytes, as they lie in memory (to write them to a file).
    pub fn as_bytes(&self) -> &[u8] {
        &self.map[..self.len * size_of::<T>()]
    }
}

impl<T: Plain> std::ops::Deref for HugeArray<T> {
    type Target = [T];
    #[inline(always)]
    fn deref(&self) -> &[T] {
        // SAFETY: the mapping is page-aligned (so aligned for `T`), holds at least `len`
        // values of `T` (any bytes are a valid `T`: `Plain`), and lives as long as `self`.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }
}

impl<T: Plain> std::ops::DerefMut for HugeArray<T> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` makes this the only reference.
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.len) }
    }
}

impl<T: Plain> std::ops::Deref for FrozenArray<T> {
    type Target = [T];
    #[inline(always)]
    fn deref(&self) -> &[T] {
        // SAFETY: as in `HugeArray::deref`; nothing writes the mapping any more.
        unsafe { std::slice::from_raw_parts(self.map.as_ptr().cast(), self.len) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering::Relaxed;

    /// An array starts zeroed, keeps what is written, and keeps it when frozen.
    #[test]
    fn written_values_survive_freezing() {
        let mut a = HugeArray::<u64>::zeroed(1000).unwrap();
        assert_eq!(a.len(), 1000);
        assert!(a.iter().all(|&x| x == 0));
        for (i, x) in a.iter_mut().enumerate() {
            *x = i as u64 * 3;
        }
        let f = a.freeze().unwrap();
        assert_eq!(f.len(), 1000);
        assert!(f.iter().enumerate().all(|(i, &x)| x == i as u64 * 3));
        let b = HugeArray::<AtomicU16>::zeroed(10).unwrap();
        b[7].fetch_or(5, Relaxed);
        assert_eq!(b[7].load(Relaxed), 5);
        assert_eq!(b[6].load(Relaxed), 0);
    }
}
