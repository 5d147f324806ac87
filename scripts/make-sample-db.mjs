// Writes sample-workspace/data.db, the database `npm start` opens: 8 books and 5 readers whose
// favorite_genre joins books.genre. Usage: node scripts/make-sample-db.mjs [out-file]
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const initSqlJs = require('sql.js');
const out = process.argv[2] ?? 'sample-workspace/data.db';

const SQL = await initSqlJs();
const db = new SQL.Database();
db.run(`
  CREATE TABLE books (
    id INTEGER PRIMARY KEY,
    title TEXT NOT NULL,
    author TEXT NOT NULL,
    year INTEGER NOT NULL,
    genre TEXT NOT NULL,
    price REAL NOT NULL,
    rating REAL NOT NULL
  );
  CREATE TABLE users (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    email TEXT NOT NULL UNIQUE,
    favorite_genre TEXT NOT NULL
  );
  CREATE INDEX books_genre ON books(genre);
`);
const books = [
  ['To Kill a Mockingbird', 'Harper Lee', 1960, 'Fiction', 12.99, 4.8],
  ['1984', 'George Orwell', 1949, 'Dystopian', 9.99, 4.7],
  ['Dune', 'Frank Herbert', 1965, 'Science Fiction', 14.5, 4.6],
  ['The Hobbit', 'J.R.R. Tolkien', 1937, 'Fantasy', 10.99, 4.7],
  ['Pride and Prejudice', 'Jane Austen', 1813, 'Romance', 7.99, 4.5],
  ['Brave New World', 'Aldous Huxley', 1932, 'Dystopian', 11.25, 4.3],
  ['Foundation', 'Isaac Asimov', 1951, 'Science Fiction', 8.99, 4.4],
  ['The Name of the Wind', 'Patrick Rothfuss', 2007, 'Fantasy', 13.75, 4.6],
];
const users = [
  ['Ada Lovelace', 'ada@example.com', 'Science Fiction'],
  ['Alan Turing', 'alan@example.com', 'Dystopian'],
  ['Grace Hopper', 'grace@example.com', 'Fantasy'],
  ['Katherine Johnson', 'katherine@example.com', 'Fiction'],
  ['Edsger Dijkstra', 'edsger@example.com', 'Romance'],
];
const addBook = db.prepare('INSERT INTO books (title, author, year, genre, price, rating) VALUES (?, ?, ?, ?, ?, ?)');
for (const b of books) addBook.run(b);
addBook.free();
const addUser = db.prepare('INSERT INTO users (name, email, favorite_genre) VALUES (?, ?, ?)');
for (const u of users) addUser.run(u);
addUser.free();
writeFileSync(out, db.export());
db.close();
console.log(`wrote ${out}: ${books.length} books, ${users.length} users`);
