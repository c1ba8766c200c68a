//! The browser's services the page uses, each behind a small Rust API so components do
//! not touch `web_sys` for them: the address, the keyboard, localStorage, animation
//! frames and slicing long work into frames or tasks, and BroadcastChannel.

pub mod broadcast;
pub mod frames;
pub mod keys;
pub mod raf;
pub mod storage;
pub mod url;
