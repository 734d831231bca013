/** A function of JSONata's library: how it is called and what it does. */
export interface JsonataFunction {
  name: string;
  /** Its parameters as JSONata's documentation writes them; `?` marks an optional one. */
  signature: string;
  description: string;
}

/**
 * Every built-in function of JSONata 2.x (its static frame, plus `$now` and `$millis`, which it
 * binds per evaluation), with the signatures of https://docs.jsonata.org: the editor offers them
 * as completion, validation suggests one for a mistyped name. A test compares the names with
 * what the installed jsonata defines, so an upgrade that adds one is noticed.
 */
export const JSONATA_FUNCTIONS: readonly JsonataFunction[] = [
  // Aggregation
  { name: 'sum', signature: '$sum(array)', description: 'The sum of an array of numbers' },
  { name: 'count', signature: '$count(array)', description: 'The number of items in an array (1 for a single value, 0 for nothing)' },
  { name: 'max', signature: '$max(array)', description: 'The largest number in an array' },
  { name: 'min', signature: '$min(array)', description: 'The smallest number in an array' },
  { name: 'average', signature: '$average(array)', description: 'The mean of an array of numbers' },
  // Strings
  { name: 'string', signature: '$string(arg, prettify?)', description: 'The value as a string; objects and arrays as JSON' },
  { name: 'substring', signature: '$substring(str, start, length?)', description: 'Part of a string from a zero-based position (negative counts from the end)' },
  { name: 'substringBefore', signature: '$substringBefore(str, chars)', description: 'The text before the first occurrence of chars (all of str when absent)' },
  { name: 'substringAfter', signature: '$substringAfter(str, chars)', description: 'The text after the first occurrence of chars (all of str when absent)' },
  { name: 'uppercase', signature: '$uppercase(str)', description: 'The string in upper case' },
  { name: 'lowercase', signature: '$lowercase(str)', description: 'The string in lower case' },
  { name: 'trim', signature: '$trim(str)', description: 'The string without leading and trailing whitespace, inner runs of whitespace made one space' },
  { name: 'pad', signature: '$pad(str, width, char?)', description: 'The string padded to width characters (negative width pads on the left)' },
  { name: 'length', signature: '$length(str)', description: 'The number of characters in a string' },
  { name: 'contains', signature: '$contains(str, pattern)', description: 'Whether the string holds pattern (a string or a /regex/)' },
  { name: 'split', signature: '$split(str, separator, limit?)', description: 'The string cut at each separator (a string or a /regex/) into an array' },
  { name: 'join', signature: '$join(array, separator?)', description: 'The strings of an array joined into one, with an optional separator' },
  { name: 'match', signature: '$match(str, pattern, limit?)', description: 'The matches of a /regex/ in the string: match, index and groups of each' },
  { name: 'replace', signature: '$replace(str, pattern, replacement, limit?)', description: 'The string with each match of pattern replaced (a string, or a function of the match)' },
  { name: 'eval', signature: '$eval(expr, context?)', description: 'Evaluates a string as a JSONata expression' },
  { name: 'base64encode', signature: '$base64encode(str)', description: 'The string encoded in Base64' },
  { name: 'base64decode', signature: '$base64decode(str)', description: 'The string decoded from Base64' },
  { name: 'encodeUrlComponent', signature: '$encodeUrlComponent(str)', description: 'The string encoded for use as one part of a URL' },
  { name: 'encodeUrl', signature: '$encodeUrl(str)', description: 'The string encoded as a whole URL' },
  { name: 'decodeUrlComponent', signature: '$decodeUrlComponent(str)', description: 'A URL component decoded' },
  { name: 'decodeUrl', signature: '$decodeUrl(str)', description: 'A URL decoded' },
  // Numbers
  { name: 'number', signature: '$number(arg)', description: 'The value as a number (a numeric string, or a boolean as 0 or 1)' },
  { name: 'abs', signature: '$abs(number)', description: 'The absolute value' },
  { name: 'floor', signature: '$floor(number)', description: 'The number rounded down' },
  { name: 'ceil', signature: '$ceil(number)', description: 'The number rounded up' },
  { name: 'round', signature: '$round(number, precision?)', description: 'The number rounded to precision decimal places (half to even)' },
  { name: 'power', signature: '$power(base, exponent)', description: 'base raised to the power exponent' },
  { name: 'sqrt', signature: '$sqrt(number)', description: 'The square root' },
  { name: 'random', signature: '$random()', description: 'A random number from 0 (included) to 1 (excluded)' },
  { name: 'formatNumber', signature: '$formatNumber(number, picture, options?)', description: "The number as text in a decimal picture such as '#,##0.00'" },
  { name: 'formatBase', signature: '$formatBase(number, radix?)', description: 'The integer as text in base radix (2 to 36)' },
  { name: 'formatInteger', signature: '$formatInteger(number, picture)', description: "The integer as text in a picture such as '000', 'w' (words) or 'I' (Roman)" },
  { name: 'parseInteger', signature: '$parseInteger(string, picture)', description: 'The integer a string written in a picture stands for' },
  // Booleans
  { name: 'boolean', signature: '$boolean(arg)', description: 'The value as a boolean (empty strings, arrays, objects and 0 are false)' },
  { name: 'not', signature: '$not(arg)', description: 'The logical negation of the value as a boolean' },
  { name: 'exists', signature: '$exists(arg)', description: 'Whether the value exists: false for a missing field or memory slug' },
  // Arrays
  { name: 'append', signature: '$append(array1, array2)', description: 'One array of the items of both' },
  { name: 'sort', signature: '$sort(array, function?)', description: 'The array sorted, by a comparison function($l, $r) when given' },
  { name: 'reverse', signature: '$reverse(array)', description: 'The array in reverse order' },
  { name: 'shuffle', signature: '$shuffle(array)', description: 'The array in random order' },
  { name: 'distinct', signature: '$distinct(array)', description: 'The array without duplicates' },
  { name: 'zip', signature: '$zip(array1, …)', description: 'An array of arrays pairing the items at each position' },
  // Objects
  { name: 'keys', signature: '$keys(object)', description: 'The keys of an object (or of the objects of an array)' },
  { name: 'lookup', signature: '$lookup(object, key)', description: 'The value of key in an object' },
  { name: 'spread', signature: '$spread(object)', description: 'An array of one-key objects, one per key' },
  { name: 'merge', signature: '$merge(array<object>)', description: 'One object with the keys of all; later keys win' },
  { name: 'each', signature: '$each(object, function)', description: 'An array of function($value, $key) applied to each key of the object' },
  { name: 'sift', signature: '$sift(object, function)', description: 'The object with only the keys for which function($value, $key) is true' },
  { name: 'error', signature: '$error(message?)', description: 'Stops the evaluation with an error' },
  { name: 'assert', signature: '$assert(condition, message?)', description: 'Stops the evaluation with message when condition is false' },
  { name: 'type', signature: '$type(value)', description: "The type of the value: 'null', 'number', 'string', 'boolean', 'array', 'object' or 'function'" },
  { name: 'clone', signature: '$clone(value)', description: 'A deep copy of an object or array' },
  // Higher-order functions
  { name: 'map', signature: '$map(array, function)', description: 'An array of function($value, $index, $array) applied to each item' },
  { name: 'filter', signature: '$filter(array, function)', description: 'The items for which function($value, $index, $array) is true' },
  { name: 'single', signature: '$single(array, function?)', description: 'The one item that satisfies function; an error when none or several do' },
  { name: 'reduce', signature: '$reduce(array, function, init?)', description: 'The array folded into one value by function($accumulator, $value)' },
  // Date and time
  { name: 'now', signature: '$now(picture?, timezone?)', description: 'The time the evaluation started, as an ISO 8601 timestamp' },
  { name: 'millis', signature: '$millis()', description: 'The time the evaluation started, in milliseconds since the epoch' },
  { name: 'fromMillis', signature: '$fromMillis(number, picture?, timezone?)', description: 'Milliseconds since the epoch as an ISO 8601 (or pictured) timestamp' },
  { name: 'toMillis', signature: '$toMillis(timestamp, picture?)', description: 'A timestamp as milliseconds since the epoch' },
];
